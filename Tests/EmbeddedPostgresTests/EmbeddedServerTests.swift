import EmbeddedPostgres
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct EmbeddedServerTests {
    @Test func startsStopsAndRestartsAPrivateServerKeepingItsData() throws {
        let (server, cleanUp) = try makeServer()
        defer { cleanUp() }
        let installation = server.installation
        #expect(server.status() == .notInitialised)

        let endpoint = try server.start()
        let pid = try #require(runningPID(server))
        #expect(endpoint == server.endpoint)
        #expect(try server.start() == endpoint)
        #expect(server.status() == .running(pid: pid), "a second start must leave the running server alone")
        #expect(try psql(installation, endpoint, "select 1") == "1")
        let settings = try psql(
            installation, endpoint,
            "select concat_ws(',', current_setting('listen_addresses'), current_setting('max_connections'),"
                + " current_setting('shared_buffers'), current_setting('wal_writer_delay'), current_setting('fsync'),"
                + " current_setting('synchronous_commit'))"
        )
        #expect(settings == ",50,256MB,10ms,on,on", "socket only, batch settings, crash safety kept")
        #expect(try permissions(of: endpoint.socketDirectory) == 0o700)
        #if os(Linux)
            // The daemon must not hold our stdout/stderr, or a CI runner reading them would wait for it forever.
            for descriptor in 0...2 {
                let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
                #expect(target == "/dev/null" || target == server.logFile, "fd \(descriptor) -> \(target)")
            }
        #endif

        _ = try psql(installation, endpoint, "create table kept (value int); insert into kept values (42)")
        try server.stop()
        #expect(server.status() == .stopped)
        try server.stop()  // stopping a stopped server does nothing

        let restarted = try server.start()
        #expect(try psql(installation, restarted, "select value from kept") == "42")

        try server.destroy()
        #expect(server.status() == .notInitialised)
        #expect(!FileManager.default.fileExists(atPath: server.clusterDirectory))
    }

    @Test func recoversFromACrashAndFromAPIDFileNamingAnotherProcess() throws {
        let (server, cleanUp) = try makeServer()
        defer { cleanUp() }
        let installation = server.installation
        let endpoint = try server.start()
        _ = try psql(installation, endpoint, "create table kept (value int); insert into kept values (42)")

        // A crash leaves postmaster.pid behind.
        let crashedPID = try #require(runningPID(server))
        #expect(kill(crashedPID, SIGKILL) == 0)
        try waitUntil { server.status() == .stopped }
        _ = try server.start()
        #expect(try psql(installation, endpoint, "select value from kept") == "42")
        #expect(runningPID(server) != crashedPID)
        try server.stop()

        // After a reboot the pid in postmaster.pid may belong to another process of the server's user: pg_ctl would
        // call that a running server, and the postmaster would refuse to start.
        let impostor = try sleeper(runningAsOwnerOf: server.dataDirectory)
        defer {
            // SIGKILL: a child spawned from a test thread inherits its blocked signals, SIGTERM among them.
            kill(impostor.processIdentifier, SIGKILL)
            impostor.waitUntilExit()
        }
        let staleLock = "\(impostor.processIdentifier)\n\(server.dataDirectory)\n0\n5432\n\(endpoint.socketDirectory)\n"
        try staleLock.write(toFile: server.dataDirectory + "/postmaster.pid", atomically: false, encoding: .utf8)
        #expect(server.status() == .stopped)
        _ = try server.start()
        #expect(try psql(installation, endpoint, "select value from kept") == "42")
        #expect(runningPID(server) != impostor.processIdentifier)
    }

    @Test func startFailureCarriesTheServerLogTail() throws {
        let (server, cleanUp) = try makeServer()
        defer { cleanUp() }
        _ = try server.start()
        try server.stop()

        let configuration = server.dataDirectory + "/postgresql.conf"
        let original = try String(contentsOfFile: configuration, encoding: .utf8)
        try (original + "no_such_setting = 1\n").write(toFile: configuration, atomically: false, encoding: .utf8)
        let error = #expect(throws: EmbeddedServerError.self) { try server.start() }
        guard case .commandFailed(let command, let status, let output) = error else {
            Issue.record("expected commandFailed, got \(String(describing: error))")
            return
        }
        #expect(command.hasPrefix("pg_ctl start -D \(server.dataDirectory)"))
        #expect(status != 0)
        #expect(output.contains(#"unrecognized configuration parameter "no_such_setting""#))
        #expect(server.status() == .stopped)
    }

    @Test func concurrentStartsShareOneServer() throws {
        let installation = try PostgresInstallation.find()
        // mkdtemp makes the home 0700: as root, start() must open it (o+x) to the unprivileged server user.
        let home = try makeTemporaryDirectory(mode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let server = EmbeddedServer(home: home, installation: installation)
        defer { try? server.destroy() }

        let results = Results()
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread {
                defer { group.leave() }
                results.append(Result { try server.start() })
            }
            .start()
        }
        group.wait()

        let endpoints = try results.all.map { try $0.get() }
        #expect(endpoints == [server.endpoint, server.endpoint])
        #expect(runningPID(server) != nil)
        #expect(try psql(installation, server.endpoint, "select 1") == "1")
        #expect(!FileManager.default.fileExists(atPath: server.clusterDirectory + "/data.initdb"))
        if geteuid() == 0 {
            #expect(try permissions(of: home) == 0o701, "only o+x is added to a home we own")
        }
    }

    @Test func missingInstallationExplainsWhatToInstall() throws {
        let empty = try makeTemporaryDirectory(mode: 0o755)
        defer { try? FileManager.default.removeItem(atPath: empty) }

        let overridden = #expect(throws: EmbeddedServerError.self) {
            try PostgresInstallation.find(
                environment: ["IAP_AUDIT_PG_BINDIR": empty, "PATH": "/usr/bin"], searchRoot: "/")
        }
        #expect(overridden == .postgresNotInstalled(searched: ["IAP_AUDIT_PG_BINDIR=\(empty)"]))

        let searched = #expect(throws: EmbeddedServerError.self) {
            try PostgresInstallation.find(environment: ["PATH": empty], searchRoot: empty)
        }
        let message = try #require(searched).description
        #expect(message.hasPrefix("PostgreSQL server binaries not found (looked in \(empty)/usr/lib/postgresql/*/bin"))
        #expect(message.contains("apt-get install -y postgresql (Debian/Ubuntu)"))
        #expect(message.contains("IAP_AUDIT_PG_BINDIR"))
        #expect(message.contains("--database-url / DATABASE_URL"))
    }

    @Test func findsTheHighestInstalledVersion() throws {
        let root = try makeTemporaryDirectory(mode: 0o755)
        defer { try? FileManager.default.removeItem(atPath: root) }
        for version in ["9.6", "15", "10"] {
            try makeFakeBinaries(in: root + "/usr/lib/postgresql/\(version)/bin")
        }
        // A client-only version (no initdb, pg_ctl) does not count, however new.
        try FileManager.default.createDirectory(
            atPath: root + "/usr/lib/postgresql/16/bin", withIntermediateDirectories: true)

        let found = try PostgresInstallation.find(environment: ["PATH": ""], searchRoot: root)
        #expect(found.binDirectory == root + "/usr/lib/postgresql/15/bin")
        #expect(found.executable("psql") == root + "/usr/lib/postgresql/15/bin/psql")

        let overridden = try PostgresInstallation.find(
            environment: ["IAP_AUDIT_PG_BINDIR": root + "/usr/lib/postgresql/10/bin"], searchRoot: root)
        #expect(overridden.binDirectory == root + "/usr/lib/postgresql/10/bin")
    }

    @Test func refusesASocketPathLongerThanTheKernelAllows() throws {
        let home = "/tmp/" + String(repeating: "h", count: 90)
        let server = EmbeddedServer(home: home, installation: PostgresInstallation(binDirectory: "/nonexistent"))
        let error = #expect(throws: EmbeddedServerError.self) { try server.start() }
        guard case .socketPathTooLong(let path, let length, _) = error else {
            Issue.record("expected socketPathTooLong, got \(String(describing: error))")
            return
        }
        #expect(path == home + "/postgres/run/.s.PGSQL.5432")
        #expect(length == path.utf8.count)
        #expect(!FileManager.default.fileExists(atPath: home))
    }

    @Test(.enabled(if: geteuid() == 0, "only root hands the server to another user"))
    func namesTheDirectoryTheServerUserCannotEnter() throws {
        let privateParent = try makeTemporaryDirectory(mode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: privateParent) }
        let server = EmbeddedServer(home: privateParent + "/home", installation: try PostgresInstallation.find())

        let error = #expect(throws: EmbeddedServerError.self) { try server.start() }
        guard case .directoryNotTraversable(let path, _) = error else {
            Issue.record("expected directoryNotTraversable, got \(String(describing: error))")
            return
        }
        #expect(path == privateParent)
        #expect(try permissions(of: privateParent) == 0o700, "an ancestor must never be loosened")
        #expect(error?.description.contains("chmod o+x \(privateParent)") == true)
    }

    @Test func quotesConnectionStringValuesForLibpq() {
        let plain = EmbeddedServer.Endpoint(
            socketDirectory: "/var/lib/iap-audit/postgres/run", port: 5432, user: "iap_audit")
        #expect(
            plain.connectionString(database: "audit")
                == "host=/var/lib/iap-audit/postgres/run port=5432 user=iap_audit dbname=audit")

        let awkward = EmbeddedServer.Endpoint(socketDirectory: "/tmp/my data", port: 5432, user: "iap_audit")
        #expect(
            awkward.connectionString(database: #"it's a\b"#)
                == #"host='/tmp/my data' port=5432 user=iap_audit dbname='it\'s a\\b'"#)
        #expect(awkward.connectionString(database: "").hasSuffix("dbname=''"))
    }

    @Test func defaultHomeFollowsTheEnvironment() {
        #expect(EmbeddedServer.defaultHome(environment: ["IAP_AUDIT_HOME": "/srv/audit"]) == "/srv/audit")
        let unconfigured = EmbeddedServer.defaultHome(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"])
        let homeOnly = EmbeddedServer.defaultHome(environment: ["HOME": "/home/u"])
        if geteuid() == 0 {
            #expect(unconfigured == "/var/lib/iap-audit")
            #expect(homeOnly == "/var/lib/iap-audit")
        } else {
            #expect(unconfigured == "/x/data/iap-audit")
            #expect(homeOnly == "/home/u/.local/share/iap-audit")
        }
    }
}

// MARK: - Helpers

/// Results collected from several threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Result<EmbeddedServer.Endpoint, any Error>] = []

    func append(_ value: Result<EmbeddedServer.Endpoint, any Error>) {
        lock.withLock { values.append(value) }
    }

    var all: [Result<EmbeddedServer.Endpoint, any Error>] {
        lock.withLock { values }
    }
}

private func runningPID(_ server: EmbeddedServer) -> Int32? {
    if case .running(let pid) = server.status() { return pid }
    return nil
}

private func makeFakeBinaries(in directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for name in ["initdb", "pg_ctl"] {
        let created = FileManager.default.createFile(
            atPath: directory + "/" + name, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        if !created { throw TestFailure(description: "could not create \(directory)/\(name)") }
    }
}

private func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
}

/// `sleep 60` as the user that owns `path` (the server's user), standing in for an unrelated process.
private func sleeper(runningAsOwnerOf path: String) throws -> Process {
    var info = stat()
    guard stat(path, &info) == 0 else { throw TestFailure(description: "cannot stat \(path)") }
    let process = Process()
    if geteuid() == 0 {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=\(info.st_uid)", "--regid=\(info.st_gid)", "--clear-groups", "--", "/bin/sleep", "60",
        ]
    } else {
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["60"]
    }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

private func waitUntil(timeout: TimeInterval = 15, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { throw TestFailure(description: "condition not met within \(timeout) s") }
        Thread.sleep(forTimeInterval: 0.05)
    }
}
