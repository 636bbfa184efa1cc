/// A mistake by whoever ran the tool (bad argument, unreadable or malformed file): the CLI
/// prints `dynamics-bench: error: <message>` on one line and exits with status 2.
public struct BenchUsageError: Error, CustomStringConvertible, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
