import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The unprivileged account the server runs as when we are root (PostgreSQL refuses to run as root).
struct ServiceUser: Sendable {
    let name: String
    let uid: uid_t
    let gid: gid_t
    let groups: [gid_t]

    /// `nil` when we are not root (the server runs as us); else `postgres`, or `nobody` when there is none.
    static func forServer() throws -> ServiceUser? {
        guard geteuid() == 0 else { return nil }
        guard let user = lookUp("postgres") ?? lookUp("nobody") else {
            throw EmbeddedServerError.noServiceUser
        }
        return user
    }

    static func lookUp(_ name: String) -> ServiceUser? {
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 << 10)
        guard getpwnam_r(name, &record, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return ServiceUser(
            name: name, uid: record.pw_uid, gid: record.pw_gid,
            groups: groupList(name, primary: record.pw_gid))
    }

    private static func groupList(_ name: String, primary: gid_t) -> [gid_t] {
        #if os(Linux)
            var count: Int32 = 32
            for _ in 0..<4 {
                var groups = [gid_t](repeating: 0, count: Int(count))
                if getgrouplist(name, primary, &groups, &count) >= 0 {
                    return Array(groups.prefix(Int(count)))
                }
            }
        #endif
        return [primary]
    }

    /// Whether this user may enter a directory with these attributes (owner, then group, then other bits).
    func canTraverse(_ info: stat) -> Bool {
        if info.st_uid == uid { return info.st_mode & 0o100 != 0 }
        if groups.contains(info.st_gid) { return info.st_mode & 0o010 != 0 }
        return info.st_mode & 0o001 != 0
    }
}
