import Testing

@testable import IAPAudit

struct SQLResourcesTests {
    @Test func splitsAtLinesEndingInASemicolonButNotInComments() {
        let statements = SQLResources.splitStatements(
            """
            -- header; with a semicolon;
            SELECT 1;
            -- only a comment;

            UPDATE t SET a = 1
            WHERE b = 2;
            """)
        #expect(statements.count == 2)
        #expect(statements[0].contains("SELECT 1;"))
        #expect(statements[1].contains("WHERE b = 2;"))
    }
}
