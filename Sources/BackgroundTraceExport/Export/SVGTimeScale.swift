import BackgroundTrace

/// Maps trace time to x in the SVG timeline: linear, except in long idle gaps (see
/// ``idleGaps(in:window:)``), each drawn compressed to a fixed width so that the
/// activity around them stays readable.
struct SVGTimeScale {
  /// The width of a compressed gap.
  static let gapWidth = 36.0

  /// A stretch of the axis: linear, or a compressed gap.
  struct Segment {
    /// Its first time.
    var start: TraceTime
    /// Its last time.
    var end: TraceTime
    /// Its left edge.
    var left: Double
    /// Its right edge.
    var right: Double
    /// Whether it is a compressed gap.
    var compressed: Bool
  }

  /// The segments from the left edge to the right edge, in time order.
  let segments: [Segment]

  /// A scale from `start` at `left` to `end` at `right`, with `gaps` (sorted, apart,
  /// inside `start...end`) compressed.
  init(
    from start: TraceTime, to end: TraceTime, left: Double, right: Double, gaps: [(start: TraceTime, end: TraceTime)]
  ) {
    let gapNanoseconds = gaps.reduce(0) { $0 + ($1.end.nanoseconds - $1.start.nanoseconds) }
    let linearNanoseconds = Double(max(end.nanoseconds - start.nanoseconds - gapNanoseconds, 1))
    let linearWidth = right - left - Double(gaps.count) * Self.gapWidth
    var segments: [Segment] = []
    var time = start
    var x = left
    for gap in gaps + [(end, end)] {
      let width = Double(gap.start.nanoseconds - time.nanoseconds) / linearNanoseconds * linearWidth
      segments.append(Segment(start: time, end: gap.start, left: x, right: x + width, compressed: false))
      x += width
      guard gap.end > gap.start else { break }
      segments.append(Segment(start: gap.start, end: gap.end, left: x, right: x + Self.gapWidth, compressed: true))
      x += Self.gapWidth
      time = gap.end
    }
    self.segments = segments
  }

  /// The compressed gaps.
  var gaps: [Segment] { segments.filter(\.compressed) }

  /// The x coordinate of `time`, clamped to the scale.
  func x(_ time: TraceTime) -> Double {
    guard let first = segments.first, let last = segments.last else { return 0 }
    if time <= first.start { return first.left }
    if time >= last.end { return last.right }
    var low = 0
    var high = segments.count - 1
    while low < high {  // the first segment that ends at or after `time`
      let middle = (low + high) / 2
      if segments[middle].end < time { low = middle + 1 } else { high = middle }
    }
    let segment = segments[low]
    let span = Double(segment.end.nanoseconds - segment.start.nanoseconds)
    guard span > 0 else { return segment.left }
    return segment.left + Double(time.nanoseconds - segment.start.nanoseconds) / span * (segment.right - segment.left)
  }

  /// The axis ticks: in each linear segment, times at a 1-2-5 step about every 110
  /// pixels, labelled in seconds, none closer than 50 pixels to the one before.
  var ticks: [(time: TraceTime, label: String)] {
    var ticks: [(time: TraceTime, label: String)] = []
    var lastX = -Double.infinity
    for segment in segments where !segment.compressed && segment.end > segment.start {
      let count = UInt64(max(1, (segment.right - segment.left) / 110))
      let raw = max((segment.end.nanoseconds - segment.start.nanoseconds) / count, 1)
      var magnitude: UInt64 = 1
      while magnitude <= raw / 10 { magnitude *= 10 }
      let step = [1, 2, 5, 10].lazy.map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
      var tick = segment.start.nanoseconds / step * step
      while tick <= segment.end.nanoseconds {
        if tick >= segment.start.nanoseconds {
          let time = TraceTime(nanoseconds: tick)
          if x(time) - lastX >= 50 {
            ticks.append((time, "\(time)s"))
            lastX = x(time)
          }
        }
        let (next, overflow) = tick.addingReportingOverflow(step)
        if overflow { break }
        tick = next
      }
    }
    return ticks
  }
}
