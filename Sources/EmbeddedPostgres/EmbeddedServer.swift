import Foundation
package import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private PostgreSQL server kept under a home directory, listening on a Unix socket only.
///
/// Layout under `home`: `postgres/data` (the cluster), `postgres/run` (the socket directory, mode 0700),
/// `postgres/server.log`, and `postgres.lock` (serialises `start`, `stop` and `destroy` across processes).
/// Authentication is `peer` with a map that lets only the OS user that runs iap-audit in, as one of two roles: the
/// bootstrap superuser (administration: databases, roles) and a non-superuser role that owns the pipeline's databases.
/// See `EmbeddedServer+Authentication.swift`.
package struct EmbeddedServer: Sendable {
    /// Whether the server's cluster exists and whether its postmaster runs.
    package enum Status: Sendable, Equatable {
        /// No cluster has been created under the home yet.
        case notInitialised
        /// The cluster exists and no server runs on it.
        case stopped
        /// A postmaster with this process id runs on the cluster.
        case running(pid: Int32)
    }

    /// How `stop` shuts the server down (`pg_ctl stop -m`).
    package enum StopMode: String, Sendable {
        /// Roll back open transactions, disconnect clients, checkpoint, exit.
        case fast
        /// Exit at once; the next start runs crash recovery.
        case immediate
    }

    /// The port that names the socket file; no TCP port is opened.
    static let port = 5432
    /// The superuser role `initdb` creates; the name is kept from the clusters of earlier versions, which upgrade in
    /// place (renaming the bootstrap superuser would take a second superuser session).
    package static let superuser = "iap_audit"
    /// The pipeline's role: LOGIN, no superuser, no CREATEROLE or CREATEDB; it owns every database but the templates.
    package static let ownerRole = "iap_audit_owner"
    /// The analysts' role, created here by the superuser so that the pipeline's migrations only grant to it.
    package static let analystRole = "iap_audit_analyst"
    /// `sun_path` holds 108 bytes on Linux including the terminating NUL; stay below 107 to leave a margin.
    static let socketPathLimit = 107
    /// How long `start` waits for a server that is still starting (in crash recovery) before giving up.
    static let startingWaitSeconds = 600
    /// Server log size above which a start moves it aside to `server.log.1`.
    static let logRotationBytes = 16 << 20

    /// The directory that holds everything this server keeps.
    package let home: String
    /// The PostgreSQL binaries that run the server.
    package let installation: PostgresInstallation
    let logger: Logger

    /// Describes a server under `home` (made absolute) run by `installation`; nothing happens until `start`.
    package init(
        home: String,
        installation: PostgresInstallation,
        logger: Logger = Logger(label: "iap-audit.embedded-postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.home = URL(fileURLWithPath: home).standardizedFileURL.path
        self.installation = installation
        self.logger = logger
    }

    /// The home to use when none is configured: `IAP_AUDIT_HOME`; `/var/lib/iap-audit` for root;
    /// else `$XDG_DATA_HOME/iap-audit`, else `$HOME/.local/share/iap-audit`.
    package static func defaultHome(environment: [String: String]) -> String {
        if let home = environment["IAP_AUDIT_HOME"], !home.isEmpty {
            return home
        }
        // Run as root, iap-audit is a system-wide tool. The server itself must run as an unprivileged user, which
        // cannot reach XDG directories under /root (mode 0700), so the data lives where system services keep theirs.
        if geteuid() == 0 {
            return "/var/lib/iap-audit"
        }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return (dataHome as NSString).appendingPathComponent("iap-audit")
        }
        let userHome = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return (userHome as NSString).appendingPathComponent(".local/share/iap-audit")
    }

    /// `home/postgres`: everything the server user owns.
    package var clusterDirectory: String { home + "/postgres" }
    /// `home/postgres/data`: the PostgreSQL data directory.
    package var dataDirectory: String { clusterDirectory + "/data" }
    /// `home/postgres/run`: the Unix socket directory.
    package var socketDirectory: String { clusterDirectory + "/run" }
    /// `home/postgres/server.log`: the server's own log.
    package var logFile: String { clusterDirectory + "/server.log" }
    /// Where the server accepts connections once started.
    package var endpoint: Endpoint {
        Endpoint(socketDirectory: socketDirectory, port: Self.port, user: Self.ownerRole, administrator: Self.superuser)
    }

    private var lockFile: String { home + "/postgres.lock" }
    private var stagingDirectory: String { clusterDirectory + "/data.initdb" }
    private var postmasterPIDFile: String { dataDirectory + "/postmaster.pid" }
    private var socketLockFile: String { socketDirectory + "/.s.PGSQL.\(Self.port).lock" }

    // MARK: - Operations

    /// Creates the cluster if needed and starts the server unless it already runs; safe to call from several
    /// processes at once.
    package func start() throws -> Endpoint {
        try checkPaths()
        let serviceUser = try ServiceUser.forServer()
        try prepareHome(for: serviceUser)
        try withExclusiveLock {
            try prepareClusterDirectories(for: serviceUser)
            if !isInitialised {
                try initialise(as: serviceUser)
            }
            // Clusters of earlier versions trusted every local connection, and lack the settings added since: every
            // start makes sure they no longer do, and have them.
            let isAuthenticationChanged = try writeAuthentication(into: dataDirectory, for: serviceUser)
            let areSettingsAdded = try addBatchSettings(
                to: dataDirectory + "/postgresql.conf", onlyMissing: true, ownedBy: serviceUser)
            if case .running(let pid) = currentStatus(as: serviceUser) {
                logger.debug("Embedded PostgreSQL already running", metadata: ["pid": "\(pid)"])
                try waitWhileStarting(as: serviceUser)
                if isAuthenticationChanged || areSettingsAdded {
                    try reloadConfiguration(as: serviceUser)
                }
                try provisionRolesIfNeeded()
                return
            }
            try removeStaleLockFiles()
            rotateLogIfLarge()
            do {
                try launch(as: serviceUser)
            } catch {
                // pg_ctl gives up after 60 s, but crash recovery can replay up to max_wal_size of WAL: a server that
                // is still starting is waited for, not reported as failed.
                guard case .running = currentStatus(as: serviceUser), postmasterState() == "starting" else {
                    throw error
                }
                try waitWhileStarting(as: serviceUser)
            }
            try provisionRolesIfNeeded()
        }
        return endpoint
    }

    /// Stops the server, waiting until it has exited; does nothing when it does not run.
    package func stop(mode: StopMode = .fast) throws {
        guard isInitialised else { return }
        let serviceUser = try ServiceUser.forServer()
        try withExclusiveLock {
            try stopIfRunning(mode: mode, as: serviceUser)
        }
    }

    /// Whether the cluster exists and the server runs.
    package func status() -> Status {
        currentStatus(as: try? ServiceUser.forServer())
    }

    /// Stops the server at once and removes `home/postgres`; for throw-away servers.
    ///
    /// `postgres.lock` stays: removing a lock file another process may be waiting on would let two of them in.
    package func destroy() throws {
        guard FileManager.default.fileExists(atPath: clusterDirectory) else { return }
        let serviceUser = try ServiceUser.forServer()
        try withExclusiveLock {
            try stopIfRunning(mode: .immediate, as: serviceUser)
            do {
                try FileManager.default.removeItem(atPath: clusterDirectory)
            } catch {
                throw EmbeddedServerError.fileSystem(
                    operation: "remove", path: clusterDirectory, reason: error.localizedDescription)
            }
        }
    }

    // MARK: - Start and stop

    /// The cluster exists once `data` does: `initialise` renames a finished cluster into place.
    private var isInitialised: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: dataDirectory, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Runs `initdb` into a staging directory and renames it into place, so a crash mid-way leaves no half cluster.
    private func initialise(as serviceUser: ServiceUser?) throws {
        if FileManager.default.fileExists(atPath: stagingDirectory) {
            try removeItem(stagingDirectory)
        }
        // A new cluster has no roles yet, whatever an earlier one under this home had.
        if FileManager.default.fileExists(atPath: rolesMarkerFile) {
            try removeItem(rolesMarkerFile)
        }
        logger.info("Initialising embedded PostgreSQL cluster", metadata: ["directory": "\(dataDirectory)"])
        // Collation "C": text compares byte by byte, which for UTF-8 is code-point order (what C.UTF-8 gives too), but
        // PostgreSQL then skips strcoll on every comparison — the ids in the big indexes are all text. Character
        // classes (upper, lower, regular expressions) still follow C.UTF-8.
        let locale = Self.isCUTF8LocaleAvailable ? ["--locale=C.UTF-8", "--lc-collate=C"] : ["--no-locale"]
        try runTool(
            "initdb",
            // No trust even for the moment before `writeAuthentication` replaces pg_hba.conf.
            ["-D", stagingDirectory, "-U", Self.superuser, "--auth-local=peer", "--auth-host=reject", "-E", "UTF8"]
                + locale,
            as: serviceUser
        )
        _ = try addBatchSettings(to: stagingDirectory + "/postgresql.conf", onlyMissing: false, ownedBy: serviceUser)
        _ = try writeAuthentication(into: stagingDirectory, for: serviceUser)
        guard rename(stagingDirectory, dataDirectory) == 0 else {
            throw EmbeddedServerError.fileSystem(operation: "rename", path: stagingDirectory, reason: Self.errnoText())
        }
    }

    private func launch(as serviceUser: ServiceUser?) throws {
        logger.info("Starting embedded PostgreSQL", metadata: ["socket": "\(socketDirectory)"])
        // pg_ctl hands these to the postmaster through /bin/sh, hence the shell quoting.
        let options = [
            "-c listen_addresses=''", "-k \(Self.shellQuoted(socketDirectory))", "-p \(Self.port)",
            "-c unix_socket_permissions=0700",
        ]
        .joined(separator: " ")
        let arguments = ["start", "-D", dataDirectory, "-l", logFile, "-w", "-t", "60", "-o", options]
        try runTool("pg_ctl", arguments, as: serviceUser, includeServerLog: true)
    }

    /// Waits while the postmaster reports `starting` (recovering); returns once it is ready or in any other state.
    private func waitWhileStarting(as serviceUser: ServiceUser?) throws {
        let deadline = Date().addingTimeInterval(TimeInterval(Self.startingWaitSeconds))
        var announced = false
        while postmasterState() == "starting" {
            guard case .running = currentStatus(as: serviceUser), Date() < deadline else {
                throw EmbeddedServerError.serverNotReady(
                    waitedSeconds: Self.startingWaitSeconds, log: Self.tail(ofFile: logFile, from: 0, lines: 20))
            }
            if !announced {
                logger.info("Waiting for embedded PostgreSQL to finish starting (crash recovery)")
                announced = true
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    private func stopIfRunning(mode: StopMode, as serviceUser: ServiceUser?) throws {
        guard case .running(let pid) = currentStatus(as: serviceUser) else { return }
        logger.info("Stopping embedded PostgreSQL", metadata: ["pid": "\(pid)", "mode": "\(mode.rawValue)"])
        try runTool(
            "pg_ctl", ["stop", "-D", dataDirectory, "-m", mode.rawValue, "-w", "-t", "60"],
            as: serviceUser, includeServerLog: true
        )
    }

    func runTool(
        _ name: String, _ arguments: [String], as serviceUser: ServiceUser?, includeServerLog: Bool = false
    ) throws {
        // Only what the server logs during this command explains its failure.
        let logStart = includeServerLog ? Self.size(ofFile: logFile) : 0
        let result = try ServerToolRunner.run(
            installation.executable(name), arguments, as: serviceUser, in: clusterDirectory)
        guard result.status == 0 else {
            var output = result.output
            if includeServerLog {
                let log = Self.tail(ofFile: logFile, from: logStart, lines: 20)
                if !log.isEmpty {
                    output += "\n--- \(logFile) ---\n" + log
                }
            }
            throw EmbeddedServerError.commandFailed(command: result.command, status: result.status, output: output)
        }
    }

    private func rotateLogIfLarge() {
        var info = stat()
        guard stat(logFile, &info) == 0, info.st_size > Self.logRotationBytes else { return }
        // rename replaces an older server.log.1 atomically; pg_ctl -l creates a fresh log.
        _ = rename(logFile, logFile + ".1")
    }

    // MARK: - Status

    private func currentStatus(as serviceUser: ServiceUser?) -> Status {
        guard isInitialised else { return .notInitialised }
        guard let pid = Self.pid(inLockFile: postmasterPIDFile) else { return .stopped }
        switch postmasterCheck(pid) {
        case .ours:
            return .running(pid: pid)
        case .stale:
            return .stopped
        case .unknown:
            let result = try? ServerToolRunner.run(
                installation.executable("pg_ctl"), ["status", "-D", dataDirectory], as: serviceUser,
                in: clusterDirectory)
            return result?.status == 0 ? .running(pid: pid) : .stopped
        }
    }

    private enum PostmasterCheck {
        /// A live process whose working directory is our data directory (the postmaster chdirs there).
        case ours
        /// No such process, a zombie, or a live process elsewhere (the pid was reused after a crash or reboot).
        case stale
        /// This platform or our privileges cannot tell; ask `pg_ctl status`.
        case unknown
    }

    /// `pg_ctl status` only asks whether the pid is alive, so after a crash a reused pid (or a zombie, when init does
    /// not reap) looks like a running server; on Linux /proc tells for certain.
    private func postmasterCheck(_ pid: Int32) -> PostmasterCheck {
        #if os(Linux)
            var procSelf = stat()
            guard stat("/proc/self/cwd", &procSelf) == 0 else { return .unknown }  // no procfs mounted
            var data = stat()
            guard stat(dataDirectory, &data) == 0 else { return .unknown }
            var cwd = stat()
            if stat("/proc/\(pid)/cwd", &cwd) == 0 {
                return cwd.st_dev == data.st_dev && cwd.st_ino == data.st_ino ? .ours : .stale
            }
            return errno == ENOENT || errno == ESRCH ? .stale : .unknown
        #else
            return .unknown
        #endif
    }

    /// Removes lock files that name a process we know is not our postmaster, so that the new postmaster does not
    /// mistake a zombie or a reused pid for a running server. Anything uncertain is left to PostgreSQL's own checks.
    private func removeStaleLockFiles() throws {
        for file in [postmasterPIDFile, socketLockFile] {
            guard let pid = Self.pid(inLockFile: file), postmasterCheck(pid) == .stale else { continue }
            logger.info("Removing stale PostgreSQL lock file", metadata: ["file": "\(file)", "pid": "\(pid)"])
            try removeItem(file)
        }
    }

    /// The postmaster's own state (`starting`, `ready`, `stopping`, `standby`), line 8 of postmaster.pid.
    private func postmasterState() -> String? {
        guard let contents = try? String(contentsOfFile: postmasterPIDFile, encoding: .utf8) else { return nil }
        let lines = contents.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count > 7 ? lines[7].trimmingCharacters(in: .whitespaces) : nil
    }

    private static func pid(inLockFile path: String) -> Int32? {
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8),
            let firstLine = contents.split(separator: "\n", omittingEmptySubsequences: false).first,
            let pid = Int32(firstLine.trimmingCharacters(in: .whitespaces)), pid > 0
        else { return nil }
        return pid
    }

    // MARK: - Directories

    private func checkPaths() throws {
        // pg_ctl double-quotes -D and -l for /bin/sh, and unix_socket_directories is a comma-separated list.
        if let bad = home.first(where: { "\"$`\\,\n".contains($0) }) {
            throw EmbeddedServerError.unsupportedPath(
                path: home, reason: "it contains \(String(reflecting: String(bad))), which pg_ctl cannot pass on")
        }
        let socketPath = socketDirectory + "/.s.PGSQL.\(Self.port)"
        let length = socketPath.utf8.count
        if length >= Self.socketPathLimit {
            throw EmbeddedServerError.socketPathTooLong(path: socketPath, length: length, limit: Self.socketPathLimit)
        }
    }

    /// Creates the home and, when the server runs as another user, makes sure that user can reach it.
    private func prepareHome(for serviceUser: ServiceUser?) throws {
        try createDirectory(home, intermediates: true)
        guard let serviceUser else { return }
        let resolved = Self.realPath(home) ?? home
        for ancestor in Self.ancestors(of: resolved) {
            var info = stat()
            guard stat(ancestor, &info) == 0 else {
                throw EmbeddedServerError.fileSystem(operation: "inspect", path: ancestor, reason: Self.errnoText())
            }
            // Never loosen someone else's directories: tell the user instead.
            guard serviceUser.canTraverse(info) else {
                throw EmbeddedServerError.directoryNotTraversable(path: ancestor, user: serviceUser.name)
            }
        }
        try makeTraversable(resolved, for: serviceUser)
    }

    private func prepareClusterDirectories(for serviceUser: ServiceUser?) throws {
        try createDirectory(clusterDirectory, intermediates: false)
        try createDirectory(socketDirectory, intermediates: false)
        // Only the server user (and root) may enter the socket directory; peer authentication then decides who of
        // them may log in.
        try setMode(0o700, of: socketDirectory)
        guard let serviceUser else { return }
        try makeTraversable(clusterDirectory, for: serviceUser)
        let owned = [clusterDirectory, socketDirectory, dataDirectory, logFile].allSatisfy { path in
            var info = stat()
            return lstat(path, &info) != 0 || info.st_uid == serviceUser.uid
        }
        if !owned {
            try changeOwner(ofTree: clusterDirectory, to: serviceUser)
        }
    }

    /// Adds o+x to `path` if the service user cannot enter it and it is ours to change.
    private func makeTraversable(_ path: String, for serviceUser: ServiceUser) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw EmbeddedServerError.fileSystem(operation: "inspect", path: path, reason: Self.errnoText())
        }
        if serviceUser.canTraverse(info) { return }
        guard info.st_uid == geteuid() else {
            throw EmbeddedServerError.directoryNotTraversable(path: path, user: serviceUser.name)
        }
        try setMode(info.st_mode & 0o7777 | 0o001, of: path)
    }

    private func changeOwner(ofTree root: String, to serviceUser: ServiceUser) throws {
        logger.debug("Handing the cluster to its server user", metadata: ["user": "\(serviceUser.name)"])
        var paths = [root]
        if let enumerator = FileManager.default.enumerator(atPath: root) {
            for case let relative as String in enumerator {
                paths.append(root + "/" + relative)
            }
        }
        for path in paths where lchown(path, serviceUser.uid, serviceUser.gid) != 0 {
            throw EmbeddedServerError.fileSystem(operation: "change the owner of", path: path, reason: Self.errnoText())
        }
    }

    private func createDirectory(_ path: String, intermediates: Bool) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: intermediates)
        } catch {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return
            }
            throw EmbeddedServerError.fileSystem(operation: "create", path: path, reason: error.localizedDescription)
        }
    }

    private func setMode(_ mode: mode_t, of path: String) throws {
        guard chmod(path, mode) == 0 else {
            throw EmbeddedServerError.fileSystem(operation: "change the mode of", path: path, reason: Self.errnoText())
        }
    }

    private func removeItem(_ path: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw EmbeddedServerError.fileSystem(operation: "remove", path: path, reason: error.localizedDescription)
        }
    }

    /// Serialises `body` with every other process (and thread) using this home, through `flock` on `postgres.lock`.
    private func withExclusiveLock(_ body: () throws -> Void) throws {
        // O_CLOEXEC: a postmaster that inherited the descriptor would hold the lock for as long as it runs.
        let descriptor = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw EmbeddedServerError.fileSystem(operation: "open", path: lockFile, reason: Self.errnoText())
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw EmbeddedServerError.fileSystem(operation: "lock", path: lockFile, reason: Self.errnoText())
            }
        }
        try body()
    }

    // MARK: - Helpers

    private static var isCUTF8LocaleAvailable: Bool {
        #if os(Linux)
            // LC_CTYPE_MASK is a function-like macro in glibc, so Swift does not see it.
            guard let locale = newlocale(1 << LC_CTYPE, "C.UTF-8", nil) else { return false }
            freelocale(locale)
            return true
        #else
            return false
        #endif
    }

    private static func shellQuoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `/`, `/a`, `/a/b` for `/a/b/c`.
    private static func ancestors(of path: String) -> [String] {
        var result = ["/"]
        var current = ""
        for component in path.split(separator: "/").dropLast() {
            current += "/" + component
            result.append(current)
        }
        return result
    }

    private static func size(ofFile path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_size) : 0
    }

    /// The last `lines` lines written to a file after byte `offset`, reading at most its last 64 KiB.
    private static func tail(ofFile path: String, from offset: UInt64, lines: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return "" }
        let window: UInt64 = 64 << 10
        // A log rotated or truncated meanwhile is read from its start.
        let start = offset <= size ? max(offset, size > window ? size - window : 0) : 0
        guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.readToEnd() else { return "" }
        return tail(of: String(decoding: data, as: UTF8.self), lines: lines)
    }

    static func tail(of text: String, lines: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .reversed().drop { $0.isEmpty }.prefix(lines).reversed()
            .joined(separator: "\n")
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
