import Foundation
import Postgres
import TestSupport

/// Waits (at most 30 s) until a command running beside the test has stored its first file, so that what the test
/// does next (stopping the server, freezing it) lands in the middle of the work.
func waitForAStoredFile(conninfo: String) throws {
    let watcher = try Connection(conninfo: conninfo, logger: TestPostgres.logger)
    for _ in 0..<600 {
        if let files = try? watcher.query("SELECT count(*) FROM input_file").int(0, 0), files > 0 { return }
        usleep(50_000)
    }
}
