import CallbackParsing
import Testing

/// One test per parser bug found while testing and fuzzing, named after the behaviour it
/// pins down. Fuzzer reproducers land here too (docs/fuzzing.md).
@Suite struct RegressionTests {
    @Test func fragmentParametersIndexFromZero() throws {
        // Facebook appends #_=_ after a query. `fragmentParameters` used the shared
        // array's indices (starting after the query's), so `fragmentParameters[0]` trapped
        // with "Index out of bounds", or read a query parameter.
        let url = try CallbackURL(parsing: "https://app.example/cb?code=c&state=s#_=_")
        let fragment = url.fragmentParameters
        #expect(fragment.startIndex == 0 && fragment.count == 1)
        #expect(fragment[0] == Parameter(name: "_", value: "_"))
        #expect(fragment.offset(at: 0) == 38)
        #expect(Array(url.queryParameters.indices) == [0, 1])
        #expect(url.queryParameters[1] == Parameter(name: "state", value: "s"))
    }
}
