internal import Foundation  // getpwuid, geteuid (Glibc, re-exported)

/// Who a decision is recorded as: `IAP_AUDIT_ANALYST` when set (analysts of a team may share one machine and OS
/// account), otherwise the OS user running the command. The database login is recorded beside it by the server.
package enum AnalystName {
    package static let variable = "IAP_AUDIT_ANALYST"

    package static func resolve(flag: String?, environment: [String: String]) -> String? {
        for candidate in [flag, environment[variable]] {
            if let name = candidate?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty { return name }
        }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name {
            let user = String(cString: name)
            if !user.isEmpty { return user }
        }
        return environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
