/// Why the embedded PostgreSQL server could not be found, started, stopped or removed.
package enum EmbeddedServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No directory with `initdb` and `pg_ctl` was found; `searched` lists where we looked.
    case postgresNotInstalled(searched: [String])
    /// Running as root, but neither a `postgres` nor a `nobody` user exists to run the server as.
    case noServiceUser
    /// The unprivileged server user cannot enter `path` (an ancestor of the home, or a home we do not own).
    case directoryNotTraversable(path: String, user: String)
    /// The Unix socket path would exceed the kernel's `sun_path` limit.
    case socketPathTooLong(path: String, length: Int, limit: Int)
    /// The home path contains a character that `pg_ctl` or the socket-directory list cannot carry.
    case unsupportedPath(path: String, reason: String)
    /// A file-system operation on the server's directories failed.
    case fileSystem(operation: String, path: String, reason: String)
    /// The server kept starting (recovering) past the wait, or stopped while starting; `log` is its log's tail.
    case serverNotReady(waitedSeconds: Int, log: String)
    /// A PostgreSQL tool exited unsuccessfully; `output` is the useful tail of its output (and of the server log).
    case commandFailed(command: String, status: Int32, output: String)

    /// What failed, on what, and what to do about it.
    package var description: String {
        switch self {
        case .postgresNotInstalled(let searched):
            return "PostgreSQL server binaries not found (looked in \(searched.joined(separator: ", "))). "
                + "Install them: apt-get install -y postgresql (Debian/Ubuntu), or set IAP_AUDIT_PG_BINDIR, "
                + "or point --database-url / DATABASE_URL at a server."
        case .noServiceUser:
            return "running as root, but there is no 'postgres' or 'nobody' user to run the embedded PostgreSQL server "
                + "as (PostgreSQL refuses to run as root). Create a 'postgres' user, or run iap-audit as a normal user."
        case .directoryNotTraversable(let path, let user):
            return "the embedded PostgreSQL server runs as user '\(user)', which cannot enter \(path). "
                + "Choose an IAP_AUDIT_HOME under /var/lib or /tmp, or run: chmod o+x \(path)"
        case .socketPathTooLong(let path, let length, let limit):
            return "the embedded server's Unix socket path \(path) is \(length) bytes; it must stay under \(limit). "
                + "Choose a shorter IAP_AUDIT_HOME."
        case .unsupportedPath(let path, let reason):
            return "cannot use \(path) for the embedded PostgreSQL server: \(reason). Choose another IAP_AUDIT_HOME."
        case .fileSystem(let operation, let path, let reason):
            return "could not \(operation) \(path): \(reason)"
        case .serverNotReady(let waitedSeconds, let log):
            return
                "the embedded PostgreSQL server did not become ready (waited up to \(waitedSeconds) s; after a crash, "
                + "recovery may still be running: try again later). End of its log:\n\(log.trimmingTrailingWhitespace)"
        case .commandFailed(let command, let status, let output):
            let trimmed = output.trimmingTrailingWhitespace
            let detail = trimmed.isEmpty ? "" : ":\n\(trimmed)"
            return "\(command) failed with exit status \(status)\(detail)"
        }
    }
}

extension String {
    /// The string without trailing spaces and newlines (tool output ends with one).
    fileprivate var trimmingTrailingWhitespace: String {
        var result = Substring(self)
        while let last = result.last, last.isWhitespace {
            result = result.dropLast()
        }
        return String(result)
    }
}
