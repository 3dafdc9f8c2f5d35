/// Runs `work` for each of `items` in their order, at most `concurrency` at once. The first item whose work returns
/// false (a failure that ends the fetch) or a stop request starts no more, and the running ones are cancelled.
func runBounded<Item: Sendable>(
    _ items: [Item], concurrency: Int, stop: StopRequest, _ work: @escaping @Sendable (Item) async -> Bool
) async {
    var pending = items[...]
    var failed = false
    await withTaskGroup(of: Bool.self) { group in
        func enqueue() {
            guard !failed, stop.signal == nil, let item = pending.popFirst() else { return }
            group.addTask { await work(item) }
        }
        for _ in 0..<max(1, concurrency) { enqueue() }
        while let succeeded = await group.next() {
            if !succeeded && !failed {
                failed = true
                group.cancelAll()
            }
            enqueue()
        }
    }
}
