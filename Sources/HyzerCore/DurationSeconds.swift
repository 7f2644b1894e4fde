extension Duration {
    /// As a floating-point number of seconds, for dates and reports.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
