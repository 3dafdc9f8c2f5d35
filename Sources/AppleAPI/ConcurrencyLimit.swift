/// At most `limit` requests in flight at once; the others wait their turn in order.
actor ConcurrencyLimit {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) { available = max(1, limit) }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
