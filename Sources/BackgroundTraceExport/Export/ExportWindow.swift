import BackgroundTrace

/// The window the public exporters draw: `--from` and `--to` as `bgtrace export` takes
/// them, except that a `to` before `from` is taken as `from` where the command refuses
/// it (docs/cli.md, "bgtrace export").
enum ExportWindow {
  /// The ``TimeWindow`` from `from` to `to` in a trace that ends at `end`.
  static func window(from: TraceTime?, to: TraceTime?, end: TraceTime) -> TimeWindow {
    let to = to.map { max($0, from ?? .zero) }
    return TimeWindow(from: from, to: to, end: end)
  }
}
