public import BackgroundTrace

/// An environment variable the golden assertions read holds a value they cannot use.
///
/// Its description names the variable, the value and what it takes:
/// `BGTRACE_RECORD is 'al'; it takes one of never, missing, failed, all`.
public struct GoldenEnvironmentError: BackgroundTraceError, Hashable {
  /// The variable, e.g. `BGTRACE_RECORD`.
  public var variable: String
  /// What is wrong with its value, after the variable's name.
  public var detail: String

  /// Creates an error.
  public init(variable: String, message: String) {
    self.variable = variable
    self.detail = message
  }

  /// Always ``/BackgroundTrace/TraceErrorKind/configuration``: the test run is configured wrongly.
  public var kind: TraceErrorKind { .configuration }
  /// `nil`: the problem is in the environment, not in a file.
  public var file: String? { nil }
  /// `nil`: the problem is in the environment, not in a file.
  public var position: TracePosition? { nil }
  /// `VARIABLE detail`.
  public var message: String { "\(variable) \(detail)" }
}
