import Testing

@testable import Reports

@Suite struct ReportParameterBindingTests {
    static let account = """
        -- title: Account drill-down
        -- description: Everything one account did.
        -- param: account text -- the hash printed by 'iap-audit hash-username NAME'
        -- param: since date = 1970-01-01
        -- param: until timestamptz = null
        -- param: limit integer = 100
        -- param: min_price numeric = 0
        -- param: sandbox boolean = false
        -- sensitive: false
        SELECT * FROM account_view($1, $2, $3, $4, $5, $6)
        """

    static func definition() throws -> ReportDefinition {
        try ReportDefinition.parse(name: "account", text: account)
    }

    @Test func appliesDefaultsInDeclarationOrder() throws {
        let bound = try Self.definition().bind(["account": "5041a3e2"])
        #expect(bound == ["5041a3e2", "1970-01-01", nil, "100", "0", "false"])
    }

    @Test func usesGivenValuesOverDefaults() throws {
        let bound = try Self.definition().bind([
            "account": "x", "since": "2016-02-29", "until": "2014-03-02 10:11:12+00", "limit": "+007",
            "min_price": "-3.5e2", "sandbox": "TRUE",
        ])
        #expect(bound == ["x", "2016-02-29", "2014-03-02 10:11:12+00", "7", "-3.5e2", "true"])
    }

    @Test func reportsMissingRequiredParameterWithUsage() throws {
        let error = try #require(throws: ReportDefinitionError.self) { try Self.definition().bind([:]) }
        #expect(
            error.description
                == "report 'account' needs --param account=<text> "
                + "(account: the hash printed by 'iap-audit hash-username NAME')")
    }

    @Test func rejectsUnknownParameterListingTheKnownOnes() throws {
        let error = try #require(throws: ReportDefinitionError.self) {
            try Self.definition().bind(["account": "x", "acount": "y"])
        }
        #expect(
            error
                == .unknownParameter(
                    report: "account", name: "acount",
                    known: ["account", "since", "until", "limit", "min_price", "sandbox"]))
        #expect(error.description.contains("has no parameter 'acount'"))
    }

    @Test func rejectsParametersForReportWithout() throws {
        let definition = try ReportDefinition.parse(
            name: "history", text: "-- title: T\n-- description: D\n-- sensitive: false\nSELECT 1")
        let error = try #require(throws: ReportDefinitionError.self) { try definition.bind(["since": "2014-01-01"]) }
        #expect(error.description == "report 'history' takes no parameters, but --param since was given")
    }

    @Test(arguments: [
        ("since", "2014-13-01"), ("since", "2014-02-30"), ("since", "2015-02-29"), ("since", "14-03-09"),
        ("since", "2014-03-02x"), ("until", "2014-03-02T25:00"), ("until", "2014-03-02T10:11:12+2"),
        ("until", "yesterday"), ("limit", "1.5"), ("limit", "99999999999999999999"), ("limit", ""),
        ("min_price", "1,5"), ("min_price", "NaN"), ("min_price", "1.2.3"), ("sandbox", "yes"), ("account", "a\u{0}b"),
    ])
    func rejectsValueOfTheWrongTypeWithoutEchoingIt(name: String, value: String) throws {
        var values = ["account": "x"]
        values[name] = value
        let error = try #require(throws: ReportDefinitionError.self) { try Self.definition().bind(values) }
        guard case .invalidParameterValue(let report, let parameter, _) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(report == "account")
        #expect(parameter == name)
        #expect(error.description.hasPrefix("report 'account': --param \(name) must be "))
        if !value.isEmpty { #expect(!error.description.contains(value)) }
    }

    @Test(arguments: [
        "2014-03-02", "2014-03-02T10:11", "2014-03-02 10:11:12", "2014-03-02T10:11:12.123456Z",
        "2014-03-02T10:11:12-05:00", "2014-03-02T10:11:12+0530", "2016-12-31T23:59:60Z",
    ])
    func acceptsISOTimestamps(value: String) throws {
        let bound = try Self.definition().bind(["account": "x", "until": value])
        #expect(bound[2] == value)
    }
}
