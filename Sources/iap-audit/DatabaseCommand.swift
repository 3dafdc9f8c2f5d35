import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit db start|stop|status|url|psql`: the embedded database.
struct DatabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db", abstract: "Manage the embedded PostgreSQL server.",
        subcommands: [Start.self, Stop.self, Status.self, URL.self, PSQL.self])

    /// The embedded server under IAP_AUDIT_HOME.
    static func server() throws -> EmbeddedDatabase {
        try EmbeddedDatabase(environment: ProcessInfo.processInfo.environment)
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start the embedded server (idempotent).")
        func run() throws {
            try runReportingFailure {
                print("running: \(try DatabaseCommand.server().start())")
                return 0
            }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop the embedded server.")
        func run() throws {
            try runReportingFailure {
                try DatabaseCommand.server().stop()
                print("stopped")
                return 0
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show whether the embedded server runs (exit 0 running, 3 stopped, 4 not initialised).")
        func run() throws {
            try runReportingFailure {
                let server = try DatabaseCommand.server()
                switch server.status() {
                case .running(let pid):
                    print("running (pid \(pid)) in \(server.home)")
                    return 0
                case .stopped:
                    print("stopped (\(server.home))")
                    return 3
                case .notInitialised:
                    print("not initialised (\(server.home))")
                    return 4
                }
            }
        }
    }

    struct URL: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the embedded server's libpq connection string.")
        @Option(help: "Database name (else IAP_AUDIT_DATABASE, else iap_audit).")
        var database: String?
        @Flag(help: "As the server's administrator (a superuser: create databases, grant roles).")
        var administrator = false
        func run() throws {
            try runReportingFailure {
                let server = try DatabaseCommand.server()
                let database = ResolvedSettings.embeddedDatabaseName(
                    flag: database, environment: ProcessInfo.processInfo.environment,
                    default: DatabaseLocation.embeddedDatabaseName)
                print(
                    administrator
                        ? server.administratorConnectionString(database: database)
                        : server.connectionString(database: database))
                return 0
            }
        }
    }

    struct PSQL: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "psql", abstract: "Open psql on the database iap-audit uses (embedded unless configured).",
            discussion: "Arguments after the options go to psql, e.g. iap-audit db psql --database iap_audit_demo -c "
                + "'SELECT rule, count(*) FROM flags_open GROUP BY rule'. psql's own help: iap-audit db psql -- --help."
        )
        @OptionGroup var global: GlobalOptions
        @Argument(parsing: .captureForPassthrough, help: "Extra psql arguments.")
        var arguments: [String] = []

        func validate() throws {
            // Everything after the options goes to psql, but --help is this command's own (psql --help: `-- --help`).
            if let first = arguments.first, first == "--help" || first == "-h" {
                throw CleanExit.helpRequest(self)
            }
        }

        func run() throws {
            try runReportingFailure {
                let (resolved, logger) = try global.resolve()
                let settings = resolved.settings
                // `--` ends this command's options; what follows is psql's alone (`-- --help`: psql's help).
                let passed = arguments.first == "--" ? Array(arguments.dropFirst()) : arguments
                let launch = try EmbeddedDatabase.psql(settings: settings, extraArguments: passed, logger: logger)
                if let notice = launch.schemaNotice {
                    FileHandle.standardError.write(Data("iap-audit: \(notice)\n".utf8))
                }
                let argv = launch.arguments
                // Replace this process: psql gets the terminal, signals and exit code directly.
                let cArguments = argv.map { strdup($0) } + [nil]
                execv(argv[0], cArguments)
                throw IAPAuditError.input("cannot start \(argv[0]): \(String(cString: strerror(errno)))")
            }
        }
    }
}
