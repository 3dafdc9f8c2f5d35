package import EmbeddedPostgres
import Foundation

/// A PostgreSQL server of one test's own, for tests that stop, freeze or kill it: doing that to the shared test
/// server would pull the floor from under every other test. It lives under the tests' home, which goes when the test
/// process exits; `destroy()` removes it sooner.
package struct PrivateTestServer {
    package let home: String
    package let server: EmbeddedServer
    /// The `postgres` database on it.
    package let conninfo: String

    /// Creates and starts a fresh server.
    package init() throws {
        home = TestPostgres.home + "/private-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        server = EmbeddedServer(home: home, installation: try PostgresInstallation.find())
        conninfo = try server.start().connectionString(database: "postgres")
    }

    /// Stops the server at once.
    package func stop() throws {
        try server.stop(mode: .immediate)
    }

    /// Stops the server and removes its home.
    package func destroy() {
        try? server.destroy()
        try? FileManager.default.removeItem(atPath: home)
    }
}
