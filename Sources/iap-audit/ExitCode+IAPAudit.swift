import ArgumentParser
import Foundation
import IAPAudit

/// sysexits(3) codes, as docs/operating.md promises them to schedulers; the others come from `IAPAuditError.exitCode`.
enum ExitCodes {
    static let dataError: Int32 = 65
    static let software: Int32 = 70

    /// The one line a user reads: what failed and why, with the kind of failure first.
    static func message(for error: any Error) -> String {
        IAPAuditError.wrapping(error).map { "\($0)" } ?? "\(error)"
    }

    /// The exit code for an error that ended a command.
    static func code(for error: any Error) -> Int32 {
        IAPAuditError.wrapping(error)?.exitCode ?? software
    }
}

/// Runs a command body, printing a failure as one clear line (one JSON object under `--log-format json`) and
/// exiting with its sysexits code.
func runReportingFailure(_ body: () throws -> Int32) throws {
    let code: Int32
    do {
        code = try body()
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch {
        let code = ExitCodes.code(for: error)
        let line = LogSetup.failureLine(ExitCodes.message(for: error), exitCode: code)
        FileHandle.standardError.write(Data((line + "\n").utf8))
        throw ExitCode(code)
    }
    if code != 0 { throw ExitCode(code) }
}
