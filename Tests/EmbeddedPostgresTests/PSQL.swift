import EmbeddedPostgres
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test's own failure, with what went wrong.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs one psql command on the server the way a user would, as `role` (the endpoint's user by default), from this
/// process's OS user or the one given, and returns its unaligned output.
func psql(
    _ installation: PostgresInstallation, _ endpoint: EmbeddedServer.Endpoint, _ sql: String, role: String? = nil,
    database: String = "postgres", asUID uid: uid_t? = nil, gid: gid_t = 0
) throws -> String {
    let psql = installation.executable("psql")
    let arguments = [
        "-X", "-v", "ON_ERROR_STOP=1", "-h", endpoint.socketDirectory, "-p", String(endpoint.port),
        "-U", role ?? endpoint.user, "-d", database, "-Atqc", sql,
    ]
    let process = Process()
    if let uid {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", psql] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
    } else {
        process.executableURL = URL(fileURLWithPath: psql)
        process.arguments = arguments
    }
    process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // psql exits and closes both pipes; read before waiting so a full pipe cannot block it.
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complaints = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw TestFailure(description: "psql failed: \(String(decoding: complaints, as: UTF8.self))")
    }
    return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
