/// Hands a buffer to `concurrentPerform`'s threads; each thread writes only its own elements of it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
