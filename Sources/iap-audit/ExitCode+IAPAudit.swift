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

/// Prints what a stage or run did (its lines on stdout, its problems on stderr) and returns its exit code.
func printed(lines: [String], problems: [String], outcome: StageOutcome) -> Int32 {
    if !lines.isEmpty { print(lines.joined(separator: "\n")) }
    for problem in problems { FileHandle.standardError.write(Data("iap-audit: \(problem)\n".utf8)) }
    return outcome.exitCode
}

/// Prints what a stage run alone did and returns its exit code.
func printed<Summary>(_ result: StageResult<Summary>) -> Int32 {
    printed(lines: result.lines, problems: result.problems, outcome: result.outcome)
}
