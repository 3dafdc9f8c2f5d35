import AppStoreFormats
import ArgumentParser
import EmbeddedPostgres
import Foundation
import IAPAudit
import Postgres

/// sysexits(3) codes, as PRODUCT.md promises them to schedulers.
enum ExitCodes {
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
    static let software: Int32 = 70
    static let tempFail: Int32 = 75
    static let config: Int32 = 78

    /// The one line a user reads: what failed and why, with the kind of failure first.
    static func message(for error: any Error) -> String {
        if let error = error as? PostgresError, error.isUnavailable { return "database unavailable: \(error)" }
        if let error = error as? EmbeddedServerError { return "embedded database: \(error)" }
        return "\(error)"
    }

    /// The exit code for an error that ended a command.
    static func code(for error: any Error) -> Int32 {
        switch error {
        case let error as IAPAuditError:
            switch error {
            case .databaseUnavailable: unavailable
            case .database(let inner): inner.isUnavailable ? unavailable : software
            case .migrationChanged, .schemaNewerThanBinary, .configuration: config
            case .locked: tempFail
            case .input: noInput
            case .usage: usage
            case .interrupted(let signal): 128 + signal
            case .internalInconsistency: software
            }
        case let error as PostgresError: error.isUnavailable ? unavailable : software
        case is EmbeddedServerError: unavailable
        default: software
        }
    }
}

/// Runs a command body, printing a failure as one clear line and exiting with its sysexits code.
func runReportingFailure(_ body: () throws -> Int32) throws {
    let code: Int32
    do {
        code = try body()
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch {
        FileHandle.standardError.write(Data("iap-audit: \(ExitCodes.message(for: error))\n".utf8))
        throw ExitCode(ExitCodes.code(for: error))
    }
    if code != 0 { throw ExitCode(code) }
}
