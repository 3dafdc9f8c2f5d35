import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit evidence export|verify`: a subject's evidence as a bundle a receiver can check (docs/evidence.md).
struct EvidenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evidence",
        abstract: "Export a subject's evidence as a bundle of plain files; verify one offline.",
        discussion: "A bundle holds the subject's flags and decisions, the stored records their evidence cites, every "
            + "JWS as Apple signed it with its verification outcome and chain, the input files' SHA-256 and "
            + "provenance, an index.html and a manifest of every file's SHA-256. See docs/evidence.md.",
        subcommands: [Export.self, Verify.self])

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the evidence bundle of a flagged subject into a new or empty folder.",
            discussion: "Prints the manifest's SHA-256: give it to the receiver by another way than the bundle, "
                + "since the manifest is not signed. Run as the pipeline's role (the stored records are its alone) "
                + "and with the --trusted-root files ingest trusted.")

        @OptionGroup var global: GlobalOptions
        @Argument(
            help: ArgumentHelp(
                "The subject: KIND:KEY, KIND one of \(EvidenceSubject.kinds.joined(separator: ", ")); or a KEY alone "
                    + "(every kind with that key), as flags list --subject takes it.", valueName: "subject"))
        var subject: String
        @Option(help: ArgumentHelp("The folder to write the bundle into: new, or empty.", valueName: "dir"))
        var out: String

        func validate() throws {
            guard EvidenceSubject(subject) != nil else {
                throw ValidationError(
                    "no subject \(subject): KIND:KEY with KIND one of \(EvidenceSubject.kinds.joined(separator: ", ")), "
                        + "or a key alone")
            }
            guard !out.isEmpty else { throw ValidationError("--out takes a folder") }
        }

        func run() throws {
            try runReportingFailure {
                let (resolved, logger) = try global.resolve()
                guard let subject = EvidenceSubject(subject) else { return 64 }
                let summary = try EvidenceExporter(settings: resolved.settings, logger: logger).export(subject, to: out)
                print(
                    "evidence: \(summary.flags) flags, \(summary.records) records, \(summary.signedObjects) signed "
                        + "objects, \(summary.files) files in \(out)")
                print(
                    "manifest sha256: \(summary.manifestSHA256) (give it to the receiver; the manifest is not signed)")
                if summary.changedSinceIngest > 0 {
                    FileHandle.standardError.write(
                        Data(
                            ("iap-audit: \(summary.changedSinceIngest) signed objects are judged differently than at "
                                + "ingest (signatures.json: outcome_at_ingest, outcome): pass the --trusted-root files "
                                + "ingest trusted\n").utf8))
                }
                return 0
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check an evidence bundle offline: every file's SHA-256 and every signature.",
            discussion: "Every JWS is judged at its signing date against Apple Root CA - G3 and the --trusted-root "
                + "files given here (never the roots the bundle carries), and must give the outcome the bundle "
                + "records. Exits 65 naming each file that fails, 0 when all hold.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The bundle's folder.", valueName: "dir")) var directory: String
        @Option(help: "The manifest's SHA-256 as the sender gave it: the check fails when it differs.")
        var manifestSha256: String?

        func validate() throws {
            if let manifestSha256, manifestSha256.count != 64 || !manifestSha256.allSatisfy(\.isHexDigit) {
                throw ValidationError("--manifest-sha256 takes 64 hexadecimal digits")
            }
        }

        func run() throws {
            try runReportingFailure {
                let (resolved, _) = try global.resolve()
                let report = try EvidenceVerifier(trustStore: try resolved.settings.trustStore())
                    .verify(directory, expectedManifestSHA256: manifestSha256)
                for root in report.roots { print("trusted root: \(root)") }
                for root in report.untrustedExportRoots {
                    print("not trusted here: root \(root), which the export trusted (roots/\(root).der)")
                }
                print("manifest sha256: \(report.manifestSHA256)")
                guard report.problems.isEmpty else {
                    for problem in report.problems {
                        FileHandle.standardError.write(Data("iap-audit: evidence: \(problem)\n".utf8))
                    }
                    print("evidence: NOT verified: \(report.problems.count) problems")
                    return ExitCodes.dataError
                }
                print(
                    "evidence: verified \(report.subject): \(report.files) files match the manifest; "
                        + "\(report.signedObjects) signed objects give their recorded outcome "
                        + "(\(report.verifiedSignatures) verified)")
                if manifestSha256 == nil {
                    print("the manifest is not signed: compare its SHA-256 with the one the sender gave you")
                }
                return 0
            }
        }
    }
}
