package import EmbeddedPostgres
import Foundation
package import Logging
import Postgres

/// A real, throw-away PostgreSQL for the tests: one private server per test process (started with the same code as
/// the embedded default), and a fresh database per test so suites run in parallel without seeing each other.
package enum TestPostgres {
    /// The server's home; removed when the test process exits.
    package static let home: String = {
        // CI points IAP_AUDIT_TEST_TMPDIR at a folder of its own run, so it can clean up after a crashed test process.
        let root = ProcessInfo.processInfo.environment["IAP_AUDIT_TEST_TMPDIR"] ?? "/tmp"
        let path = "\(root)/iap-audit-tests-\(getpid())"
        try? FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return path
    }()

    private static let server: Result<EmbeddedServer.Endpoint, any Error> = Result {
        let installation = try PostgresInstallation.find()
        let server = EmbeddedServer(home: home, installation: installation)
        let endpoint = try server.start()
        atexit {
            // Stop the server with the tests: CI must not be left with a daemon holding its output open.
            if let installation = try? PostgresInstallation.find() {
                try? EmbeddedServer(home: TestPostgres.home, installation: installation).destroy()
            }
            try? FileManager.default.removeItem(atPath: TestPostgres.home)
        }
        return endpoint
    }

    package static let logger: Logger = {
        var logger = Logger(label: "iap-audit-tests")
        logger.logLevel = .warning
        return logger
    }()

    /// The running server (started on first use).
    package static func endpoint() throws -> EmbeddedServer.Endpoint {
        try server.get()
    }

    /// Creates an empty database with a unique name and returns its conninfo.
    package static func freshDatabase(prefix: String = "t") throws -> String {
        let endpoint = try endpoint()
        let name = "\(prefix)_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        let admin = try Connection(conninfo: endpoint.connectionString(database: "postgres"), logger: logger)
        try admin.execute(script: "CREATE DATABASE \(name)")
        return endpoint.connectionString(database: name)
    }
}
