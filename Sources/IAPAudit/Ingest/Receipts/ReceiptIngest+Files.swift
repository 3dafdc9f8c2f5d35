extension ReceiptIngest {
    /// The per-file loop. Each file is loaded in its own transaction on a thread of its own (`FileRun`), on the
    /// connection of its lane: with two lanes, file N+1's rows stream in on one connection while file N's statements
    /// run on the other, so the server's two jobs and our parsing share the cores. File N+1 starts loading once file
    /// N's rows are in, and runs its statements once file N has ended, so at most two transactions are open and files
    /// are stored in order. With one lane, one file after another.
    ///
    /// Each file is also hashed, judged and its parsing started (`prepare`) while the file before it loads. A stop
    /// request is honoured between files (a file that has begun loading is finished); a file that fails is quarantined
    /// and the batch goes on; what must stop the batch stops it after the files before it are accounted for.
    static func ingest(
        _ files: [String], lanes: [ReceiptIngest], stop: StopRequest, into summary: inout IngestSummary
    ) throws {
        let settled = SettledTransactions()
        var next = files.first.map { path in Result { try lanes[0].prepare(path) } }
        var previous: FileRun?
        var latest: FileRun?
        let threads = lanes.map { _ in LaneThread() }
        defer {
            next?.cancelIfPrepared()
            _ = previous?.waitForOutcome()
            _ = latest?.waitForOutcome()
            for thread in threads { thread.close() }
        }
        // A run is accounted for on its own lane's connection, free once the run has ended.
        func account(_ run: FileRun) throws {
            try lanes[run.index % lanes.count].session.account(
                run.waitForOutcome(), of: run.path, filesDone: run.index + 1, filesTotal: files.count,
                progressStage: "receipts", into: &summary)
        }
        for (index, path) in files.enumerated() {
            if let running = previous, stop.signal != nil {
                previous = nil
                try account(running)
            }
            try stop.check()
            guard let current = next else { break }
            next = nil
            // This lane's connection is free: the run that last used it was accounted for.
            let lane = lanes[index % lanes.count]
            if index + 1 < files.count {
                let following = files[index + 1]
                next = Result { try lane.prepare(following) }
                // What must stop the batch (the database is gone) stops it now, in the order it happened: the
                // current file would otherwise fail after it, on a connection that is no more, and hide why.
                if case .failure(let error) = next, FileFailure(path: following, error: error) == nil {
                    current.cancelIfPrepared()
                    if let running = previous {
                        previous = nil
                        try account(running)
                    }
                    throw error
                }
            }
            let run = FileRun(index: index, path: path, after: previous)
            latest = run
            run.start(on: threads[index % lanes.count]) { beforeFinishing in
                try lane.ingest(try current.get(), settled: settled, beforeFinishing: beforeFinishing)
            }
            if let running = previous {
                previous = nil
                try account(running)
            }
            if lanes.count == 1 {
                try account(run)
            } else {
                run.waitUntilLoaded()
                previous = run
            }
        }
        if let running = previous {
            previous = nil
            try account(running)
        }
    }
}
