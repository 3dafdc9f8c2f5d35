internal import IAPAudit
internal import Reports

/// A flag's console page (`/flags/flag-ID.html`): the written site's page of the flag (what it says, its evidence,
/// its whole decision log), with the forms that append to the log: the same `TriageDesk.decide` (the database's
/// `flag_decide`) as `iap-audit flags`.
enum FlagPage {
    /// The page's path from the site's root; the written site names a flag's page the same way.
    static func path(_ id: Int64) -> String { "flags/flag-\(id).html" }

    /// Flag `id`'s page: the written site's (`LiveSite.flagPage`), with the forms its status allows and a link to
    /// its JSON; nil when the site has no page for it.
    static func page(id: Int64, site: LiveSite, analyst: String) throws -> SitePage? {
        guard var page = try site.flagPage(id: id, deciding: { forms(id: id, status: $0, analyst: analyst) }) else {
            return nil
        }
        page.breadcrumbs.append(("JSON", "flag-\(id).json"))
        return page
    }

    /// The actions the flag's status allows: an open flag is confirmed or dismissed, a decided one reopened; any flag
    /// takes a note. Each form names the person (the console's analyst, changeable: analysts may share a machine).
    private static func forms(id: Int64, status: String, analyst: String) -> [SitePage.Block] {
        let action = "/flags/flag-\(id)/decide"
        let person = SiteForm.Field.text(name: "analyst", label: "Who decides", value: analyst)
        func form(_ decision: TriageAction, _ fields: [SiteForm.Field], _ submit: String) -> SitePage.Block {
            .form(
                SiteForm(
                    action: action, isPost: true,
                    fields: [.hidden(name: "action", value: decision.rawValue)] + fields + [person], submit: submit))
        }
        let why = SiteForm.Field.text(name: "text", label: "Why", value: "")
        var blocks: [SitePage.Block] = []
        if status == "open" {
            blocks.append(form(.confirm, [why], "Confirm"))
            blocks.append(
                form(
                    .dismiss,
                    [
                        .select(
                            name: "reason", label: "Reason",
                            options: DismissalReason.allCases.map { ($0.rawValue, $0.rawValue) }, selected: ""),
                        .text(name: "text", label: "Why (required with other)", value: ""),
                    ], "Dismiss"))
        } else if status == "confirmed" || status == "dismissed" {
            blocks.append(form(.reopen, [why], "Reopen"))
        }
        blocks.append(form(.note, [.text(name: "text", label: "Note", value: "")], "Add note"))
        return blocks
    }

    /// The decision a posted form asks for; a missing or unknown value is a `BadRequest` (400) saying which. The
    /// rules are those of `iap-audit flags` (and the database checks them again).
    static func decision(_ form: FormValues, flagID: Int64) throws(BadRequest) -> TriageDecision {
        guard let actionText = form["action"], let action = TriageAction(rawValue: actionText) else {
            throw BadRequest("action takes " + TriageAction.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var reason: DismissalReason?
        if action == .dismiss {
            guard let text = form["reason"], let value = DismissalReason(rawValue: text) else {
                throw BadRequest(
                    "a dismissal takes a reason: " + DismissalReason.allCases.map(\.rawValue).joined(separator: ", "))
            }
            reason = value
        } else if form["reason"] != nil {
            throw BadRequest("only a dismissal takes a reason; say why in the text")
        }
        let text = form["text"] ?? ""
        if (action != .dismiss || reason == .other) && text.isEmpty {
            throw BadRequest("\(action.rawValue) needs a text saying why")
        }
        guard let analyst = form["analyst"] else { throw BadRequest("say who decides") }
        guard text.count <= 4000, analyst.count <= 200 else { throw BadRequest("the text or the name is too long") }
        return TriageDecision(flagID: flagID, action: action, reason: reason, text: text, actor: analyst)
    }
}
