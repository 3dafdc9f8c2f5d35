import Foundation
import Testing

/// The console in a real browser: load the queue, filter it with its form, open a flag, dismiss it with the form, see
/// it dismissed; the decision is in the log. Skipped, saying so, only where Chromium is not installed (.ci/run
/// installs it).
@Suite struct BrowserTests {
    @Test(
        .enabled(
            if: HeadlessChromium.isInstalled,
            "Chromium is not installed at \(HeadlessChromium.path): apt-get install chromium (.ci/run does)"))
    func loadFilterDismissAndSeeItDismissed() throws {
        let console = try ConsoleFixture()
        try console.start()
        try console.running {
            let browser = try HeadlessChromium()
            defer { browser.close() }
            let carol = try console.flagIDs()[0]
            try browser.navigate(console.base + "/flags.html")
            try browser.wait(for: "document.body.innerText.includes('2 flags')")

            // Filter with the form, as a person would: pick the rule, press Filter.
            _ = try browser.evaluate(
                """
                (() => {
                const form = document.querySelector('form[action="/flags.html"]');
                form.querySelector('select[name=severity]').value = 'high';
                form.querySelector('button').click();
                })()
                """)
            try browser.wait(for: "location.search.includes('severity=high')")
            #expect(try browser.evaluate("document.body.innerText.includes('0 flags')") as? Bool == true)
            _ = try browser.evaluate(
                """
                (() => {
                const again = document.querySelector('form[action="/flags.html"]');
                again.querySelector('select[name=severity]').value = '';
                again.querySelector('select[name=rule]').value = 'invalid-receipts';
                again.querySelector('button').click();
                })()
                """)
            try browser.wait(for: "location.search.includes('rule=invalid-receipts')")
            #expect(try browser.evaluate("document.body.innerText.includes('2 flags')") as? Bool == true)

            // Open carol's flag and dismiss it as family sharing.
            _ = try browser.evaluate("document.querySelector('a[href=\"flags/flag-\(carol).html\"]').click()")
            try browser.wait(for: "location.pathname === '/flags/flag-\(carol).html'")
            _ = try browser.evaluate(
                """
                (() => {
                const dismiss = document.querySelector('input[name=action][value=dismiss]').form;
                dismiss.querySelector('select[name=reason]').value = 'family-sharing';
                dismiss.querySelector('input[name=text]').value = 'her children\\'s iPad';
                dismiss.querySelector('input[name=analyst]').value = 'alice';
                dismiss.querySelector('button').click();
                })()
                """)
            try browser.wait(for: "document.querySelector('input[name=action][value=reopen]') !== null")
            let text = try browser.evaluate("document.querySelector('dl.facts').innerText") as? String ?? ""
            #expect(text.contains("dismissed"), "\(text)")
            #expect(try console.trail(carol) == ("dismissed", ["dismiss:family-sharing by alice"]))

            try browser.navigate(console.base + "/flags.html")
            try browser.wait(for: "document.body.innerText.includes('1 flag.')")
        }
        try console.stop()
    }
}
