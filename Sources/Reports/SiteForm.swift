/// A form on a site page: what `iap-audit serve` puts on its live pages (the queue's filters, the username search,
/// a flag's triage actions). The written site has none: its pages run nothing and post nowhere.
///
/// Every name, value and label is escaped; `action` is a path the server chose, never input text.
package struct SiteForm: Sendable {
    /// One control of the form.
    package enum Field: Sendable {
        /// A value sent with the form and not shown (the flag's id, the action a button takes).
        case hidden(name: String, value: String)
        /// A one-line text box; `isSecret` hides what is typed (and keeps the browser from remembering it).
        case text(name: String, label: String, value: String, isSecret: Bool = false)
        /// A whole number of 0 or more.
        case number(name: String, label: String, value: String)
        /// A choice among `options` (value, label); the one whose value is `selected` is chosen.
        case select(name: String, label: String, options: [(value: String, label: String)], selected: String)
    }

    /// Where the form goes (a path of the server).
    package var action: String
    /// `get` for filters (the URL keeps them), `post` for anything that changes or must not be in a URL.
    package var isPost: Bool
    package var fields: [Field]
    /// The button's text.
    package var submit: String

    package init(action: String, isPost: Bool, fields: [Field], submit: String) {
        self.action = action
        self.isPost = isPost
        self.fields = fields
        self.submit = submit
    }

    static let stylesheet = """
        form.site { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: end; margin: 0.6em 0;
          padding: 8px 10px; border: 1px solid var(--line); border-radius: 6px; }
        form.site label { display: flex; flex-direction: column; font-size: 0.85em; color: var(--muted); }
        form.site input, form.site select, form.site button { font: inherit; font-size: 0.95rem; padding: 3px 6px; }
        form.site input[type=text], form.site input[type=password] { min-width: 14ch; }
        @media (max-width: 600px) { form.site label { flex: 1 1 100%; } form.site input { width: 100%; } }

        """

    func append(to out: inout RenderBuffer) {
        out.write("<form class=\"site\" method=\"\(isPost ? "post" : "get")\" action=\"")
        ReportRenderer.appendHTMLEscaped(action, to: &out)
        out.write("\">\n")
        for field in fields {
            switch field {
            case .hidden(let name, let value):
                Self.input("hidden", name: name, value: value, to: &out)
            case .text(let name, let label, let value, let isSecret):
                Self.label(label, to: &out)
                Self.input(isSecret ? "password" : "text", name: name, value: value, to: &out)
                out.write("</label>\n")
            case .number(let name, let label, let value):
                Self.label(label, to: &out)
                Self.input("number", name: name, value: value, to: &out)
                out.write("</label>\n")
            case .select(let name, let label, let options, let selected):
                Self.label(label, to: &out)
                out.write("<select name=\"")
                ReportRenderer.appendHTMLEscaped(name, to: &out)
                out.write("\">")
                for option in options {
                    out.write("<option value=\"")
                    ReportRenderer.appendHTMLEscaped(option.value, to: &out)
                    out.write(option.value == selected ? "\" selected>" : "\">")
                    ReportRenderer.appendHTMLEscaped(option.label, to: &out)
                    out.write("</option>")
                }
                out.write("</select></label>\n")
            }
        }
        ReportRenderer.appendElement("<button type=\"submit\">", submit, "</button>\n</form>\n", to: &out)
    }

    private static func label(_ text: String, to out: inout RenderBuffer) {
        ReportRenderer.appendElement("<label>", text, "", to: &out)
    }

    private static func input(_ type: String, name: String, value: String, to out: inout RenderBuffer) {
        out.write("<input type=\"\(type)\" name=\"")
        ReportRenderer.appendHTMLEscaped(name, to: &out)
        out.write("\" value=\"")
        ReportRenderer.appendHTMLEscaped(value, to: &out)
        out.write(type == "password" ? "\" autocomplete=\"off\">" : type == "number" ? "\" min=\"0\">" : "\">")
    }
}
