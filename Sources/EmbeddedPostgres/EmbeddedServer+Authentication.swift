import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who may log in, and as what.
///
/// `peer` authentication over the Unix socket, with a `pg_ident.conf` map: the OS user that runs iap-audit (root, or
/// the user whose server it is) may log in as the bootstrap superuser or as the pipeline's owner role, and nobody
/// else may log in at all. Peer rather than a generated scram password: the server is socket-only and private to one
/// OS user, so the kernel's word on who is at the other end of the socket is the credential, and there is no secret
/// to store, rotate or leak through a connection string; a second cluster run by the same `postgres` OS user (its
/// `COPY … TO PROGRAM` runs as `postgres`) is not in the map and is refused. The pipeline connects as the owner role,
/// which is no superuser: no `COPY … TO PROGRAM`, no `pg_read_server_files`, no new roles.
extension EmbeddedServer {
    /// The name of the map in `pg_ident.conf`.
    static let identMap = "iap_audit"
    /// Bumped when `provisionRoles` gains a step that existing clusters must run too.
    static let rolesVersion = "2"

    var rolesMarkerFile: String { clusterDirectory + "/roles.version" }

    /// Writes `pg_hba.conf` and `pg_ident.conf` into `directory` unless they already say the same; returns whether
    /// anything changed (a running server must then reload).
    func writeAuthentication(into directory: String, for serviceUser: ServiceUser?) throws -> Bool {
        let client = try Self.clientUserName()
        let hba = """
            # Written by iap-audit at every start of the embedded server: edits here are replaced (docs/decisions.md,
            # "Operating"). Unix socket only (listen_addresses is empty); the OS user is the credential, and only the
            # users pg_ident.conf maps may log in, as the roles it maps them to. No trust, no TCP.
            local   all   all   peer map=\(Self.identMap)

            """
        let ident = """
            # Written by iap-audit at every start of the embedded server: the OS user that runs iap-audit, as the
            # superuser (administration) or as the pipeline's owner role. No one else.
            \(Self.identMap)   "\(client)"   \(Self.superuser)
            \(Self.identMap)   "\(client)"   \(Self.ownerRole)

            """
        var isChanged = false
        for (name, contents) in [("pg_hba.conf", hba), ("pg_ident.conf", ident)] {
            let path = directory + "/" + name
            if (try? String(contentsOfFile: path, encoding: .utf8)) == contents { continue }
            try Self.replaceFile(path, with: contents, ownedBy: serviceUser)
            isChanged = true
        }
        if isChanged {
            logger.info("Wrote the embedded server's authentication", metadata: ["client": "\(client)"])
        }
        return isChanged
    }

    /// Makes a running server apply rewritten authentication files, or added settings, before returning (a setting
    /// that takes a restart, such as `shared_buffers`, waits for the next one).
    ///
    /// `pg_ctl reload` only signals the postmaster: a connection made right after it could still be checked against
    /// the old rules (an upgraded cluster would trust everyone a moment longer). A new session reports when the
    /// postmaster last loaded its files, so we wait until that time moves; a session the old rules refused counts as
    /// moved.
    func reloadConfiguration(as serviceUser: ServiceUser?) throws {
        let loadTime = "SELECT pg_conf_load_time()"
        let before = try? runAdministration(database: "postgres", sql: loadTime, extraArguments: ["-At"])
        try runTool("pg_ctl", ["reload", "-D", dataDirectory], as: serviceUser)
        let waitSeconds = 10
        let deadline = Date().addingTimeInterval(TimeInterval(waitSeconds))
        while Date() < deadline {
            if let now = try? runAdministration(database: "postgres", sql: loadTime, extraArguments: ["-At"]),
                now != before
            {
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw EmbeddedServerError.commandFailed(
            command: "pg_ctl reload", status: -1,
            output: "the server did not load its new configuration within \(waitSeconds) s; see \(logFile)")
    }

    /// Creates the owner and analyst roles and hands every database to the owner role, once per cluster.
    ///
    /// A cluster made by an earlier version has its databases and objects owned by the bootstrap superuser, whose
    /// objects `REASSIGN OWNED` refuses to touch (they include the system catalogs): each database's own objects are
    /// listed from the catalogs and altered one by one instead.
    func provisionRolesIfNeeded() throws {
        if (try? String(contentsOfFile: rolesMarkerFile, encoding: .utf8)) == Self.rolesVersion { return }
        logger.info("Setting up the embedded server's roles", metadata: ["owner": "\(Self.ownerRole)"])
        try runAdministration(database: "postgres", sql: Self.rolesSQL)
        let listing = try runAdministration(
            database: "postgres",
            sql: "SELECT datname FROM pg_database WHERE datallowconn AND NOT datistemplate ORDER BY datname",
            extraArguments: ["-At0"])
        let databases = listing.split(separator: "\0").map { $0.trimmingCharacters(in: .newlines) }.filter {
            !$0.isEmpty
        }
        for database in databases {
            try runAdministration(database: database, sql: Self.ownershipSQL)
            try runAdministration(database: database, sql: Self.containmentSQL)
        }
        // Function privileges live in each database; one made later copies template1's.
        try runAdministration(database: "template1", sql: Self.containmentSQL)
        try runAdministration(database: "postgres", sql: Self.maintenanceDatabasesSQL)
        try Self.replaceFile(rolesMarkerFile, with: Self.rolesVersion, ownedBy: nil)
    }

    /// Runs `sql` with psql as the superuser in `database`, from this process's OS user; returns psql's output.
    @discardableResult
    private func runAdministration(database: String, sql: String, extraArguments: [String] = []) throws -> String {
        let conninfo = endpoint.administratorConnectionString(database: database)
        let arguments = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", conninfo] + extraArguments + ["-c", sql]
        let result = try ServerToolRunner.run(installation.executable("psql"), arguments, outputLines: .max)
        guard result.status == 0 else {
            throw EmbeddedServerError.commandFailed(
                command: "psql (set up roles in \(database))", status: result.status,
                output: Self.tail(of: result.output, lines: 20))
        }
        return result.output
    }

    static var rolesSQL: String {
        """
        DO $$
        BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(ownerRole)') THEN
                CREATE ROLE \(ownerRole);
            END IF;
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(analystRole)') THEN
                CREATE ROLE \(analystRole) NOLOGIN;
            END IF;
        END
        $$;
        ALTER ROLE \(ownerRole) LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT;
        -- The owner may act as an analyst (SET ROLE) to see what analysts see; the analyst gains nothing from it.
        GRANT \(analystRole) TO \(ownerRole);
        """
    }

    /// What only the pipeline may call in the current database: the advisory-lock functions (an analyst holding the
    /// run's lock would stop every run) and the ones that create large objects (rows outside any table, a way to fill
    /// the disk). PostgreSQL grants them to PUBLIC; only their owner, the superuser, can take them back.
    static var containmentSQL: String {
        """
        DO $$
        DECLARE
            routine regprocedure;
        BEGIN
            FOR routine IN
                SELECT p.oid::regprocedure FROM pg_proc p
                WHERE p.pronamespace = 'pg_catalog'::regnamespace
                  AND (p.proname LIKE '%advisory%'
                       OR p.proname IN ('lo_creat', 'lo_create', 'lo_from_bytea', 'lo_import'))
            LOOP
                EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', routine);
                IF routine::text LIKE '%advisory%' THEN
                    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', routine, '\(ownerRole)');
                END IF;
            END LOOP;
        END
        $$;
        """
    }

    /// The server's own databases take no one's connections but the superuser's and (for `postgres`, where it checks
    /// that its database exists) the pipeline's: an analyst's login could otherwise make temporary tables and
    /// functions there.
    static var maintenanceDatabasesSQL: String {
        """
        REVOKE CONNECT, TEMPORARY ON DATABASE postgres FROM PUBLIC;
        REVOKE CONNECT, TEMPORARY ON DATABASE template1 FROM PUBLIC;
        GRANT CONNECT ON DATABASE postgres TO \(ownerRole);
        """
    }

    /// Makes the owner role own the current database and whatever in it the superuser owns (outside the system
    /// schemas and extensions): schemas, relations (sequences owned by a column follow their table), routines, types.
    static var ownershipSQL: String {
        """
        DO $$
        DECLARE
            new_owner constant name := '\(ownerRole)';
            old_owner constant oid := '\(superuser)'::regrole;
            object record;
        BEGIN
            EXECUTE format('ALTER DATABASE %I OWNER TO %I', current_database(), new_owner);
            FOR object IN
                SELECT n.nspname FROM pg_namespace n
                WHERE n.nspowner = old_owner AND n.nspname <> 'information_schema' AND n.nspname !~ '^pg_'
            LOOP
                EXECUTE format('ALTER SCHEMA %I OWNER TO %I', object.nspname, new_owner);
            END LOOP;
            -- Relations, routines and types in one list, so that the schema filter and the test for extension
            -- members are stated once.
            FOR object IN
                SELECT owned.kind, owned.name
                FROM (
                    SELECT 'pg_class'::regclass AS catalog, c.oid, c.relnamespace AS namespace,
                        c.oid::regclass::text AS name,
                        CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                            WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS kind
                    FROM pg_class c
                    WHERE c.relowner = old_owner AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
                    UNION ALL
                    SELECT 'pg_proc'::regclass, p.oid, p.pronamespace, p.oid::regprocedure::text, 'ROUTINE'
                    FROM pg_proc p
                    WHERE p.proowner = old_owner
                    UNION ALL
                    SELECT 'pg_type'::regclass, t.oid, t.typnamespace, t.oid::regtype::text, 'TYPE'
                    FROM pg_type t
                    WHERE t.typowner = old_owner AND t.typtype IN ('b', 'c', 'd', 'e', 'r')
                      AND (t.typrelid = 0 OR EXISTS (SELECT FROM pg_class c WHERE c.oid = t.typrelid AND c.relkind = 'c'))
                      AND NOT EXISTS (SELECT FROM pg_type e WHERE e.typarray = t.oid)
                ) owned
                JOIN pg_namespace n ON n.oid = owned.namespace
                WHERE n.nspname <> 'information_schema' AND n.nspname !~ '^pg_'
                  AND NOT EXISTS (
                      SELECT FROM pg_depend d
                      WHERE d.classid = owned.catalog AND d.objid = owned.oid
                        AND (d.deptype = 'e' OR (owned.kind = 'SEQUENCE' AND d.deptype IN ('a', 'i'))))
            LOOP
                EXECUTE format('ALTER %s %s OWNER TO %I', object.kind, object.name, new_owner);
            END LOOP;
        END
        $$;
        """
    }

    /// The name of the OS user this process runs as: what peer authentication will see at the socket.
    static func clientUserName() throws -> String {
        let uid = geteuid()
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 << 10)
        guard getpwuid_r(uid, &record, &buffer, buffer.count, &result) == 0, result != nil,
            let pointer = record.pw_name
        else {
            throw EmbeddedServerError.unknownClientUser(uid: UInt32(uid))
        }
        let name = String(cString: pointer)
        // pg_ident.conf carries it double-quoted, one line per entry.
        guard !name.isEmpty, !name.contains(where: { $0 == "\"" || $0.isNewline }) else {
            throw EmbeddedServerError.unknownClientUser(uid: UInt32(uid))
        }
        return name
    }

    /// Replaces `path` atomically with `contents`, mode 0600, owned by `serviceUser` when given.
    static func replaceFile(_ path: String, with contents: String, ownedBy serviceUser: ServiceUser?) throws {
        let temporary = path + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(contents.utf8)) else {
            throw EmbeddedServerError.fileSystem(operation: "write", path: temporary, reason: errnoText())
        }
        guard chmod(temporary, 0o600) == 0 else {
            throw EmbeddedServerError.fileSystem(operation: "change the mode of", path: temporary, reason: errnoText())
        }
        if let serviceUser, lchown(temporary, serviceUser.uid, serviceUser.gid) != 0 {
            throw EmbeddedServerError.fileSystem(operation: "change the owner of", path: temporary, reason: errnoText())
        }
        guard rename(temporary, path) == 0 else {
            throw EmbeddedServerError.fileSystem(operation: "rename", path: temporary, reason: errnoText())
        }
    }
}
