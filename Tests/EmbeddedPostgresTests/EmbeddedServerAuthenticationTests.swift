import EmbeddedPostgres
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The embedded server lets in only the OS user that runs iap-audit, and the pipeline's role is no superuser.
@Suite struct EmbeddedServerAuthenticationTests {
    @Test func refusesEveryRoleAndOSUserOutsideTheMap() throws {
        let (server, cleanUp) = try makeServer()
        defer { cleanUp() }
        let endpoint = try server.start()
        #expect(try run(server, endpoint.user, "select current_user") == endpoint.user)
        #expect(try run(server, endpoint.administrator, "select current_user") == endpoint.administrator)

        // A role that may log in, but that the map does not give to our OS user.
        _ = try run(server, endpoint.administrator, "create role intruder login")
        let intruder = #expect(throws: TestFailure.self) { try run(server, "intruder", "select 1") }
        #expect(intruder?.description.contains(#"Peer authentication failed for user "intruder""#) == true)
        let postgres = #expect(throws: TestFailure.self) { try run(server, "postgres", "select 1") }
        #expect(postgres?.description.contains("Peer authentication failed") == true)

        let hba = try String(contentsOfFile: server.dataDirectory + "/pg_hba.conf", encoding: .utf8)
        let rules = hba.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
        #expect(rules.map { $0.split(separator: " ").joined(separator: " ") } == ["local all all peer map=iap_audit"])
        #expect(try run(server, endpoint.user, "select current_setting('listen_addresses')") == "")
    }

    /// What another cluster run by the same `postgres` OS user would do with `COPY … TO PROGRAM 'psql …'`.
    @Test(.enabled(if: geteuid() == 0, "only root runs the server as another OS user"))
    func refusesTheServersOwnOSUser() throws {
        let (server, cleanUp) = try makeServer()
        defer { cleanUp() }
        let endpoint = try server.start()
        var info = stat()
        #expect(stat(server.dataDirectory, &info) == 0)
        #expect(info.st_uid != 0, "the server runs as an unprivileged user")
        for role in [endpoint.user, endpoint.administrator] {
            let refused = #expect(throws: TestFailure.self) {
                try run(server, role, "select 1", asUID: info.st_uid, gid: info.st_gid)
            }
            #expect(refused?.description.contains(#"Peer authentication failed for user "\#(role)""#) == true)
        }
    }

    @Test func thePipelineRoleOwnsTheDatabaseButCannotRunProgramsOrReadServerFiles() throws {
        let (server, cleanUp) = try makeServer()
        defer { cleanUp() }
        let endpoint = try server.start()
        let facts = try run(
            server, endpoint.user,
            """
            select concat_ws(',', rolsuper, rolcreaterole, rolcreatedb, pg_has_role('pg_execute_server_program', 'usage'),
                pg_has_role('pg_read_server_files', 'usage'), pg_has_role('iap_audit_analyst', 'member'),
                (select datdba::regrole::text from pg_database where datname = current_database()))
            from pg_roles where rolname = current_user
            """)
        #expect(facts == "f,f,f,f,f,t,\(endpoint.user)")
        let program = #expect(throws: TestFailure.self) {
            try run(server, endpoint.user, "copy (select 1) to program 'true'")
        }
        #expect(
            program?.description.contains("pg_execute_server_program role to COPY to or from an external program")
                == true)
        let file = #expect(throws: TestFailure.self) {
            try run(server, endpoint.user, "select pg_read_file('PG_VERSION')")
        }
        #expect(file?.description.contains("permission denied") == true)
        // Its own objects, in the database it owns.
        #expect(try run(server, endpoint.user, "create table mine (id serial); select count(*) from mine") == "0")
    }

    /// A cluster made by an earlier version: trust for every local connection, and everything owned by the bootstrap
    /// superuser the pipeline used to connect as. The next start fixes both, whether the old server still runs (an
    /// upgrade of the binary under a running server) or was stopped.
    @Test(arguments: [true, false])
    func upgradesAClusterThatTrustedEveryoneAndRanThePipelineAsSuperuser(isRunning: Bool) throws {
        let (server, cleanUp) = try makeServer()
        defer { cleanUp() }
        let endpoint = try server.start()
        let admin = endpoint.administrator
        _ = try run(server, admin, "create database legacy owner \(admin)")
        _ = try run(
            server, admin,
            """
            create table receipt (id serial primary key, raw text);
            create table counted (id bigint generated always as identity, n int);
            create sequence free_sequence;
            create view receipt_ids as select id from receipt;
            create materialized view receipt_count as select count(*) from receipt;
            create type status as enum ('open', 'closed');
            create domain positive as int check (value > 0);
            create function twice(int) returns int language sql as 'select $1 * 2';
            create schema scratch create table notes (body text);
            """, database: "legacy")
        // Undo what the new version set up, and trust everyone again: the function privileges it granted the owner
        // role live in each database (template1's were copied into legacy).
        for database in ["template1", "legacy"] {
            _ = try run(server, admin, "drop owned by \(endpoint.user)", database: database)
        }
        _ = try run(
            server, admin,
            "alter database postgres owner to \(admin); drop owned by \(endpoint.user); drop role \(endpoint.user); "
                + "drop role iap_audit_analyst; grant connect, temporary on database postgres, template1 to public")
        try "local all all trust\n".write(
            toFile: server.dataDirectory + "/pg_hba.conf", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: server.clusterDirectory + "/roles.version")
        _ = try run(server, admin, "select pg_reload_conf()")
        _ = try run(server, admin, "create role intruder login")
        // pg_reload_conf only signals the postmaster; give it a moment to trust everyone.
        let deadline = Date().addingTimeInterval(10)
        while (try? run(server, "intruder", "select 1")) == nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try run(server, "intruder", "select 1") == "1", "the old cluster trusts anyone")
        if !isRunning {
            try server.stop()
        }

        #expect(try server.start() == endpoint)
        #expect(throws: TestFailure.self) { try run(server, "intruder", "select 1") }
        let owners = try run(
            server, admin,
            """
            select string_agg(distinct owner, ',') from (
                select datdba::regrole::text from pg_database where datname in ('legacy', 'postgres')
                union all select relowner::regrole::text from pg_class where relname in
                    ('receipt', 'receipt_id_seq', 'counted', 'counted_id_seq', 'free_sequence', 'receipt_ids',
                     'receipt_count', 'receipt_pkey', 'notes')
                union all select typowner::regrole::text from pg_type where typname in ('status', 'positive')
                union all select proowner::regrole::text from pg_proc where proname = 'twice'
                union all select nspowner::regrole::text from pg_namespace where nspname = 'scratch'
            ) as objects (owner)
            """, database: "legacy")
        #expect(owners == endpoint.user)
        let work = try run(
            server, endpoint.user,
            """
            insert into receipt (raw) values ('x'); insert into counted (n) values (1);
            refresh materialized view receipt_count;
            select concat_ws(',', (select count(*) from receipt_ids), twice(2), nextval('free_sequence'),
                (select rolsuper from pg_roles where rolname = current_user))
            """, database: "legacy")
        #expect(work == "1,4,1,f")
    }
}

// MARK: - Helpers

/// Runs `sql` with psql as `role`, from this process's OS user or the one given, and returns its unaligned output.
private func run(
    _ server: EmbeddedServer, _ role: String, _ sql: String, database: String = "postgres",
    asUID uid: uid_t? = nil, gid: gid_t = 0
) throws -> String {
    try psql(server.installation, server.endpoint, sql, role: role, database: database, asUID: uid, gid: gid)
}
