import Foundation
import Testing

@testable import IAPAudit

#if canImport(Glibc)
    import Glibc
#endif

/// A pepper file is a secret: like ssh with a private key, iap-audit refuses one that others could read or change.
struct PepperFileTests {
    /// A pepper of the 32 bytes HMAC-SHA256 needs.
    static let secret = "pepper-of-thirty-two-bytes-long!"

    static func pepperFile(mode: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pepper-\(UUID().uuidString)").path
        try Data((Self.secret + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func aPrivatePepperFileIsRead() throws {
        let path = try Self.pepperFile(mode: 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try Settings.pepper(environment: ["IAP_AUDIT_PEPPER_FILE": path]) == Array(Self.secret.utf8))
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o620, 0o602, 0o610])
    func aPepperFileOthersCanReachIsRefused(mode: Int) throws {
        let path = try Self.pepperFile(mode: mode)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try Settings.pepper(environment: ["IAP_AUDIT_PEPPER_FILE": path])
            Issue.record("mode \(String(mode, radix: 8)) was accepted")
        } catch {
            #expect(error.exitCode == 78)
            #expect("\(error)".contains("chmod 600 \(path)"))
            #expect("\(error)".contains("mode 0\(String(mode, radix: 8))"))
        }
    }

    @Test func aPepperFileOfAnotherUserIsRefusedButRootsIsNot() throws {
        let me = UInt32(geteuid())
        let other = me == 1 ? 2 : 1 as UInt32
        #expect(throws: IAPAuditError.self) {
            try Settings.checkPrivate(pepperFile: "/p", mode: 0o100600, owner: other)
        }
        try Settings.checkPrivate(pepperFile: "/p", mode: 0o100600, owner: me)
        try Settings.checkPrivate(pepperFile: "/p", mode: 0o100400, owner: 0)
    }
}
