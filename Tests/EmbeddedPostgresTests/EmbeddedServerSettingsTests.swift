import Foundation
import Testing

@testable import EmbeddedPostgres

/// The embedded server's batch settings reach clusters made before a setting was added, and leave an operator's own
/// lines alone.
@Suite struct EmbeddedServerSettingsTests {
    @Test func aSettingIsMissingOnlyWhereNoLineSetsIt() {
        let configuration = """
            #wal_writer_delay = 200ms\t\t# 1-10000 milliseconds
            Max_Connections=20
              shared_buffers 128MB
            max_wal_size = 4GB   # iap-audit's own
            """
        let missing = EmbeddedServer.batchSettingsMissing(from: configuration).map(\.name)
        #expect(missing == ["checkpoint_timeout", "wal_writer_delay"])
        #expect(EmbeddedServer.batchSettingsMissing(from: "").count == EmbeddedServer.batchSettings.count)
    }

    /// A home made before `wal_writer_delay` was a batch setting gets it at its next start, whether the server still
    /// runs (the binary upgraded under it) or was stopped; a value the operator wrote for another setting stays.
    @Test(arguments: [true, false])
    func anOlderClusterGetsTheSettingsAddedSinceAndKeepsItsOwn(isRunning: Bool) throws {
        let (server, cleanUp) = try makeServer()
        defer { cleanUp() }
        let endpoint = try server.start()
        let configuration = server.dataDirectory + "/postgresql.conf"
        let written = try String(contentsOfFile: configuration, encoding: .utf8)
        #expect(written.contains("\nwal_writer_delay = 10ms\n"))
        let older = written.replacingOccurrences(of: "\nwal_writer_delay = 10ms\n", with: "\n")
            .replacingOccurrences(of: "\ncheckpoint_timeout = 15min\n", with: "\ncheckpoint_timeout = 20min\n")
        try older.write(toFile: configuration, atomically: false, encoding: .utf8)
        #expect(try psql(server.installation, endpoint, "select pg_reload_conf()", role: endpoint.administrator) == "t")
        let settings = "select current_setting('wal_writer_delay') || ',' || current_setting('checkpoint_timeout')"
        let deadline = Date().addingTimeInterval(10)
        while try psql(server.installation, endpoint, settings) != "200ms,20min", Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try psql(server.installation, endpoint, settings) == "200ms,20min", "the older cluster's settings")
        if !isRunning {
            try server.stop()
        }

        #expect(try server.start() == endpoint)
        #expect(try psql(server.installation, endpoint, settings) == "10ms,20min")
        let upgraded = try String(contentsOfFile: configuration, encoding: .utf8)
        #expect(upgraded.components(separatedBy: "wal_writer_delay = 10ms").count == 2, "added once")
        #expect(try server.start() == endpoint)
        #expect(try String(contentsOfFile: configuration, encoding: .utf8) == upgraded, "and only once")
    }
}
