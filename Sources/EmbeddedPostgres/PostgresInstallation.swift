import Foundation

/// The PostgreSQL server binaries (`initdb`, `pg_ctl`, `postgres`, `psql`) installed on this machine.
package struct PostgresInstallation: Sendable, Equatable {
    /// The directory holding the server binaries.
    package let binDirectory: String

    /// Uses `binDirectory` as is; `find` is the checked way to get one.
    package init(binDirectory: String) {
        self.binDirectory = binDirectory
    }

    /// The absolute path of the PostgreSQL program `name` (such as `"psql"`) in this installation.
    package func executable(_ name: String) -> String {
        (binDirectory as NSString).appendingPathComponent(name)
    }

    /// Finds the installation from this process's environment and the real file system.
    package static func find() throws -> PostgresInstallation {
        try find(environment: ProcessInfo.processInfo.environment, searchRoot: "/")
    }

    /// Finds the server binaries, in order: `IAP_AUDIT_PG_BINDIR`; `pg_config --bindir` when `pg_config` is on the
    /// environment's `PATH`; the highest version under `<searchRoot>/usr/lib/postgresql/*/bin`;
    /// `<searchRoot>/usr/local/pgsql/bin`. A directory counts only if it holds `initdb` and `pg_ctl`.
    package static func find(environment: [String: String], searchRoot: String) throws -> PostgresInstallation {
        var searched: [String] = []

        // An explicit choice that is wrong is an error, not a hint to guess elsewhere.
        if let override = environment["IAP_AUDIT_PG_BINDIR"], !override.isEmpty {
            if holdsServerBinaries(override) {
                return PostgresInstallation(binDirectory: override)
            }
            throw EmbeddedServerError.postgresNotInstalled(searched: ["IAP_AUDIT_PG_BINDIR=\(override)"])
        }

        if let pgConfig = executableOnPath("pg_config", path: environment["PATH"] ?? "") {
            searched.append("\(pgConfig) --bindir")
            if let directory = bindirReported(by: pgConfig), holdsServerBinaries(directory) {
                return PostgresInstallation(binDirectory: directory)
            }
        }

        let versionsRoot = (searchRoot as NSString).appendingPathComponent("usr/lib/postgresql")
        searched.append("\(versionsRoot)/*/bin")
        for version in installedVersions(in: versionsRoot) {
            let directory = (versionsRoot as NSString).appendingPathComponent("\(version)/bin")
            if holdsServerBinaries(directory) {
                return PostgresInstallation(binDirectory: directory)
            }
        }

        let sourceBuild = (searchRoot as NSString).appendingPathComponent("usr/local/pgsql/bin")
        searched.append(sourceBuild)
        if holdsServerBinaries(sourceBuild) {
            return PostgresInstallation(binDirectory: sourceBuild)
        }

        throw EmbeddedServerError.postgresNotInstalled(searched: searched)
    }

    private static func holdsServerBinaries(_ directory: String) -> Bool {
        ["initdb", "pg_ctl"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: (directory as NSString).appendingPathComponent($0))
        }
    }

    /// The first executable `name` in the environment's `PATH` (e.g. a client-only install's `psql`), or nil.
    package static func executable(_ name: String, onPathOf environment: [String: String]) -> String? {
        executableOnPath(name, path: environment["PATH"] ?? "")
    }

    private static func executableOnPath(_ name: String, path: String) -> String? {
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = (String(directory) as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }

    private static func bindirReported(by pgConfig: String) -> String? {
        guard let result = try? ServerToolRunner.run(pgConfig, ["--bindir"]), result.status == 0 else {
            return nil
        }
        let directory = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return directory.isEmpty ? nil : directory
    }

    /// Version directory names (`"15"`, `"9.6"`), highest first; names that are not versions are skipped.
    private static func installedVersions(in root: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let versions: [(name: String, parts: [Int])] = names.compactMap { name in
            let parts = name.split(separator: ".").map { Int($0) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            return (name, parts.compactMap { $0 })
        }
        return versions.sorted { $0.parts.lexicographicallyPrecedes($1.parts) }.reversed().map(\.name)
    }
}
