import EmbeddedPostgres
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server of the installed PostgreSQL, not started, in a fresh directory the server's OS user can enter;
/// `cleanUp` destroys the server and removes the directory.
func makeServer() throws -> (EmbeddedServer, cleanUp: () -> Void) {
    let installation = try PostgresInstallation.find()
    let base = try makeTemporaryDirectory(mode: 0o755)
    let server = EmbeddedServer(home: base + "/home", installation: installation)
    return (
        server,
        {
            try? server.destroy()
            try? FileManager.default.removeItem(atPath: base)
        }
    )
}

/// A fresh directory under /tmp with exactly `mode` (mkdtemp makes 0700).
func makeTemporaryDirectory(mode: mode_t) throws -> String {
    var template = Array("/tmp/iap-audit-test-XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
    }
    guard let path = created, chmod(path, mode) == 0 else {
        throw TestFailure(description: "could not create a temporary directory: \(String(cString: strerror(errno)))")
    }
    return path
}
