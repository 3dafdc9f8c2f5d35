package import Reports

/// The report site's subject pages rendered on request, for `iap-audit serve` (Sources/Console): the written site's
/// own renderer (`ReportSite.subjectPage`) over the triage desk's connection, so the console and the files never
/// differ in what a page says.
package struct LiveSite {
    let desk: TriageDesk

    package init(desk: TriageDesk) { self.desk = desk }

    /// The subject kinds, longest first (a file name `receipt-data-…` is not a `receipt`).
    static let kinds = ["store-account", "receipt-data", "app-account", "transaction", "receipt"]

    /// The page of subject `kind`/`key` as `subjects/<kind>-<key>.html` of the written site renders it; its links are
    /// relative to `subjects/`. Every subject gets a page here (an account found by a search need not be flagged);
    /// it links to the subjects the written site has pages for.
    package func subjectPage(kind: String, key: String) throws -> SitePage {
        let subject = ReportSite.Subject(kind: kind, key: key)
        let (_, subjects, pages) = try ReportSite(connection: desk.connection, directory: "").subjectPages()
        let live = SubjectPages(subjects: Set(subjects).union([subject]), flags: pages.flags)
        let data = try ReportSite.SubjectData.read([subject], connection: desk.connection)
        return ReportSite.subjectPage(subject, data: data, pages: live)
    }

    /// The path of a subject's page from the site's root, as the written site names it.
    package static func subjectPath(kind: String, key: String) -> String {
        SubjectPages(subjects: []).href(ReportSite.Subject(kind: kind, key: key), from: .root)
    }

    /// The kind and key a subject page's file name (without `.html`) names; nil for a name no page has, or a key
    /// the site writes as a digest (which cannot be read back).
    package static func subject(fileStem stem: String) -> (kind: String, key: String)? {
        for kind in kinds where stem.hasPrefix(kind + "-") {
            let key = String(stem.dropFirst(kind.count + 1))
            guard !key.isEmpty, SubjectPages.fileSafe(key) == key else { return nil }
            return (kind, key)
        }
        return nil
    }
}
