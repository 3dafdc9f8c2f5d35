/// The knobs of the generated StoreKit 2 data: apart from the certificate and signature bytes (ECDSA draws at
/// random), every output byte is a function of these values alone.
package struct StoreKit2Scenario: Sendable, Equatable, Codable {
    /// Seeds the keys of the signing chain and every draw of the simulation.
    package var seed: UInt64
    /// The first day of StoreKit 2 activity (UTC).
    package var startDay: CalendarDay
    /// How many days of activity.
    package var days: Int
    /// How many app accounts use StoreKit 2 (the planted failures and traps come on top).
    package var accounts: Int

    /// Creates a scenario; the defaults are the example data set: ten days of March 2025, 24 accounts.
    package init(seed: UInt64 = 20_250_301, startDay: CalendarDay = .storeKit2Start, days: Int = 10, accounts: Int = 24)
    {
        self.seed = seed
        self.startDay = startDay
        self.days = days
        self.accounts = accounts
    }

    enum CodingKeys: String, CodingKey {
        case seed
        case startDay = "start_day"
        case days, accounts
    }

    /// Why the scenario cannot be generated, or nil when it can.
    var problem: String? {
        if days < 8 || days > 3_650 { return "days must be between 8 and 3650, not \(days)" }
        if accounts < 1 || accounts > 1_000_000 { return "accounts must be between 1 and 1000000, not \(accounts)" }
        return nil
    }
}

extension CalendarDay {
    /// 2025-03-01: StoreKit 2 and the App Store Server API are how every app records purchases by then.
    package static let storeKit2Start = CalendarDay("2025-03-01") ?? .defaultStart
}
