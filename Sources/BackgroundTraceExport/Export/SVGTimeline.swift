import BackgroundTrace
import BackgroundTraceCheck

/// Draws a ``TimelineModel`` as a self-contained SVG timeline (no scripts, no external
/// resources): a time axis with 1-2-5 ticks, long idle stretches drawn compressed (see
/// ``SVGTimeScale``); a band of the app's states per process; a
/// row of point events (rejections, marks, terminations, environment and inputs); the
/// checker's findings, numbered, each on the lane of what it is about (the findings row
/// when that lane is not drawn), with its text beside it when `findingText` is set; one
/// lane per task, scheduler run, request never launched and work item (see
/// ``SVGTimelineLayout``), coloured by outcome, with expirations marked and a lane's bad
/// outcome written beside it; then a legend and the list of findings. Markers and labels
/// never overlap (``SVGLabelLayout``). Every shape has a `<title>`, which browsers show
/// on hover.
package struct SVGTimeline {
  let model: TimelineModel
  let layout: SVGTimelineLayout
  /// The findings inside the window, numbered from 1 in this order.
  let findings: [TimelineModel.LocatedFinding]
  /// Whether each finding's text is written beside its marker (the HTML page).
  let findingText: Bool
  /// Whether the drawing goes inside the HTML page, whose script zooms it: the root then
  /// carries the plot's box, and each text beside a bar or marker the drawing x of what
  /// it stands beside (`data-at`), so that it keeps its distance at any zoom.
  let inPage: Bool
  private var output: StreamedText<Never>
  /// Where the markers and labels went.
  package private(set) var labels = SVGLabelLayout(left: 4, right: SVGTimelineLayout.width - 4)
  /// The row of the lane being drawn.
  private var row = 0

  private static let stateTop = 70.0
  private static let eventsTop = 94.0
  private static let findingsTop = 110.0
  /// The top of the first lane group.
  static let lanesTop = 132.0
  /// The findings row's number in ``labels``.
  private static let findingsRow = -1
  /// The most findings numbered and listed.
  static let listedFindings = 50

  /// Writes the timeline of `model` within `window` to `sink`, in pieces.
  ///
  /// - Parameters:
  ///   - standalone: whether to start with an XML declaration; inside a page (false)
  ///     the root carries `data-plot="LEFT RIGHT BOTTOM"` for the page's script
  ///     (``HTMLTimelineScript``).
  /// - Complexity: O(*n* + *l* log *l*) in the model's size and its number of lanes.
  ///   - findingText: whether to write each finding's text beside its marker.
  /// - Returns: the boxes of the markers and labels placed.
  @discardableResult
  package static func write(
    _ model: TimelineModel, window: TimeWindow, standalone: Bool, findingText: Bool = false,
    to sink: @escaping (String) -> Void
  ) -> [SVGLabelLayout.Box] {
    var timeline = SVGTimeline(
      model: model, layout: SVGTimelineLayout(model, window: window),
      findings: model.findings.filter { window.contains($0.time) }, findingText: findingText,
      inPage: !standalone, output: StreamedText(sink))
    timeline.draw(standalone: standalone)
    return timeline.labels.placed
  }

  // MARK: Drawing

  private mutating func draw(standalone: Bool) {
    let lanesBottom = Self.lanesTop + lanesHeight
    let legendTop = lanesBottom + (layout.drawnLanes < layout.totalLanes ? 34 : 16)
    let findingsListTop = legendTop + 5 * 18 + 8
    let listed = min(findings.count, Self.listedFindings)
    let height =
      findingsListTop + (findings.isEmpty ? 0 : 22 + Double(listed) * 15 + (listed < findings.count ? 15 : 0))
    let width = SVGTimelineLayout.width
    if standalone { emit("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") }
    emit(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
        + "viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\""
        + (inPage ? pageAttributes(lanesBottom: lanesBottom) : "") + ">\n")
    emit("<title>\(XMLText.escape("bgtrace timeline: \(model.name)"))</title>\n")
    emit("<rect width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#ffffff\" pointer-events=\"none\"/>\n")
    drawHeader()
    drawAxis(bottom: lanesBottom)
    drawStates()
    drawEvents()
    drawLanes()
    drawFindingMarks()
    drawOutcomes()
    if layout.drawnLanes < layout.totalLanes {
      label(
        "Showing \(layout.drawnLanes) of \(layout.totalLanes) lanes: those with a problem first, the rest sampled "
          + "evenly over time. Use --from and --to to see a shorter window in full.",
        x: 12, y: lanesBottom + 18, color: "#555555")
    }
    drawLegend(top: legendTop)
    drawFindingList(top: findingsListTop)
    emit("</svg>\n")
    output.finish()
  }

  private var lanesHeight: Double {
    guard !layout.groups.isEmpty else { return 24 }
    return layout.groups.reduce(0) {
      $0 + SVGTimelineLayout.headerHeight + Double($1.lanes.count) * SVGTimelineLayout.laneHeight
    }
  }

  private mutating func drawHeader() {
    let processes = model.processes.count == 1 ? "1 process" : "\(model.processes.count) processes"
    let findingCount = model.findings.count == 1 ? "1 finding" : "\(model.findings.count) findings"
    emit(
      "<text x=\"12\" y=\"24\" font-size=\"15\" font-weight=\"bold\">"
        + XMLText.escape(XMLText.truncated(model.name, to: 120)) + "</text>\n")
    let window = layout.window
    let compressed = layout.scale.gaps.isEmpty ? "" : "; idle stretches drawn compressed (grey)"
    let shown = "window \(window.from)s to \(window.to)s\(compressed)"
    let cut = model.isCut ? " (cut there: the trace's last events are lost)" : ""
    label(
      "\(model.eventCount) events, \(model.end)s\(cut), \(processes), \(findingCount); \(shown)", x: 12, y: 42,
      color: "#444444")
  }

  private mutating func drawAxis(bottom: Double) {
    for gap in layout.scale.gaps {
      let title =
        "\(gap.start)s to \(gap.end)s (\(duration(gap.start, gap.end))) drawn compressed: "
        + "the app was suspended or not running, and nothing happened"
      emit(
        "<g><title>\(XMLText.escape(title))</title><rect x=\"\(n(gap.left))\" y=\"58\" width=\"\(n(gap.right - gap.left))\" "
          + "height=\"\(n(bottom - 58))\" fill=\"#eceff1\"/><path d=\"M\(n(gap.left - 3)) 62L\(n(gap.left + 3)) 54"
          + "M\(n(gap.right - 3)) 62L\(n(gap.right + 3)) 54\" stroke=\"#546e7a\" stroke-width=\"1.5\"/>"
          + "<text x=\"\(n((gap.left + gap.right) / 2))\" y=\"53\" text-anchor=\"middle\" font-size=\"9\" "
          + "fill=\"#546e7a\">\(Self.gapLength(gap.start, gap.end))</text></g>\n")
    }
    for tick in layout.scale.ticks {
      let x = layout.x(tick.time)
      let tickClass = inPage ? " class=\"tick\"" : ""
      emit("<line x1=\"\(n(x))\" y1=\"58\" x2=\"\(n(x))\" y2=\"\(n(bottom))\" stroke=\"#e0e0e0\"\(tickClass)/>\n")
      emit(
        "<text x=\"\(n(x))\" y=\"54\" text-anchor=\"middle\" fill=\"#555555\"\(tickClass)>"
          + "\(XMLText.escape(tick.label))</text>\n")
    }
    emit(
      "<line x1=\"\(n(layout.plotLeft))\" y1=\"58\" x2=\"\(n(layout.plotRight))\" y2=\"58\" stroke=\"#9e9e9e\"/>\n")
  }

  private mutating func drawStates() {
    let top = Self.stateTop
    label("App state", x: 12, y: top + 13, bold: true)
    emit(
      "<rect x=\"\(n(layout.plotLeft))\" y=\"\(n(top))\" width=\"\(n(layout.plotRight - layout.plotLeft))\" "
        + "height=\"18\" fill=\"#fafafa\" stroke=\"#e0e0e0\" pointer-events=\"none\"/>\n")
    for span in model.states {
      guard let clipped = layout.window.clip(span.start, span.end) else { continue }
      let x = layout.x(clipped.start)
      let width = layout.x(clipped.end) - x
      guard width >= 0.25 else { continue }  // thinner than any pixel: its neighbours show
      let title =
        "\(span.state) in process \(span.process + 1): \(span.start)s to \(span.end)s (\(duration(span.start, span.end)))"
      rect(x, top, width, 18, fill: SVGPalette.state(span.state), title: title)
      if width > Double(span.state.count) * 6.5 + 6 {
        emit(
          "<text x=\"\(n(x + 3))\" y=\"\(n(top + 13))\"\(at(x)) fill=\"#263238\" pointer-events=\"none\">"
            + "\(span.state)</text>\n")
      }
    }
    drawMomentaryStates()
    guard model.processes.count > 1 else { return }
    let stroke = model.processes.count > 20 ? "0.8" : "1.5"
    var lastX = -Double.infinity
    for (index, process) in model.processes.enumerated() where layout.window.contains(process.start) {
      let x = layout.x(process.start)
      guard x - lastX >= 2 else { continue }
      lastX = x
      let title = "process \(index + 1): \(process.start)s to \(process.end)s, \(process.ending)"
      emit(
        "<line x1=\"\(n(x))\" y1=\"\(n(top - 3))\" x2=\"\(n(x))\" y2=\"\(n(top + 21))\" stroke=\"#263238\" "
          + "stroke-width=\"\(stroke)\"><title>\(XMLText.escape(title))</title></line>\n")
    }
  }

  /// A tick for each state entered and left at one instant, one per pixel.
  private mutating func drawMomentaryStates() {
    let top = Self.stateTop
    var lastX = -Double.infinity
    for span in model.momentaryStates where layout.window.contains(span.start) {
      let x = layout.x(span.start)
      guard x - lastX >= 1 else { continue }
      lastX = x
      let title = "\(span.state) in process \(span.process + 1) at \(span.start)s, left at once (0s)"
      emit(
        "<g><title>\(XMLText.escape(title))</title><rect x=\"\(n(x - 1))\" y=\"\(n(top))\" width=\"2\" height=\"18\" "
          + "fill=\"\(SVGPalette.state(span.state))\" stroke=\"#263238\" stroke-width=\"0.5\"/>"
          + "<path d=\"M\(n(x - 3.5)) \(n(top - 5))L\(n(x + 3.5)) \(n(top - 5))L\(n(x)) \(n(top))Z\" "
          + "fill=\"\(SVGPalette.state(span.state))\" stroke=\"#263238\" stroke-width=\"0.6\"/></g>\n")
    }
  }

  private mutating func drawEvents() {
    let top = Self.eventsTop
    label("Events", x: 12, y: top + 10, bold: true)
    // Events closer than a pixel share one mark (per colour), so a large trace stays light.
    var pending: (x: Double, color: String, title: String, more: Int)?
    func flush(_ timeline: inout SVGTimeline) {
      guard let mark = pending else { return }
      let title = mark.title + (mark.more > 0 ? "\n(and \(mark.more) more events here)" : "")
      timeline.rect(mark.x - 0.75, top, 1.5, 12, fill: mark.color, title: title)
    }
    for instant in model.instants where layout.window.contains(instant.time) {
      let color: String
      switch (instant.category, instant.track) {
      case (.rejection, _): color = SVGPalette.bad
      case (.event, .events): color = instant.detail.contains(" app.terminate") ? "#212121" : "#78909c"
      default: continue
      }
      let x = layout.x(instant.time)
      if let mark = pending, mark.color == color, x - mark.x < 1 {
        pending?.more += 1
        continue
      }
      flush(&self)
      pending = (x, color, instant.detail, 0)
    }
    flush(&self)
  }

  /// Each finding on the row of what it is about (the findings row when that lane is not
  /// drawn): the first ``listedFindings`` as numbered circles, nudged aside rather than
  /// overlapping, with their text beside them when ``findingText`` is set; the rest as
  /// thin marks, one per pixel and row.
  private mutating func drawFindingMarks() {
    label("Findings", x: 12, y: Self.findingsTop + 11, bold: true)
    var lastMark: [Int: Double] = [:]
    var texts: [(text: String, title: String, color: String, centre: Double, y: Double, row: Int, minimum: Int)] = []
    for (index, located) in findings.enumerated() {
      let finding = located.finding
      let row = layout.row(of: located.subject, in: model) ?? Self.findingsRow
      let centreY = row == Self.findingsRow ? Self.findingsTop + 7 : layout.top(ofRow: row) + 8
      let x = layout.x(located.time)
      let color = finding.severity == .error ? SVGPalette.error : SVGPalette.warning
      let found = located.time == finding.time ? "" : " (found at \(finding.time)s)"
      let title =
        "#\(index + 1) \(finding.severity.rawValue) [\(finding.rule.id)] at \(located.time)s\(found): \(finding.message)"
      guard index < Self.listedFindings,
        let centre = labels.placeMarker(x: x, y: centreY - 7, width: 14, height: 14, row: row, reach: 400)
      else {
        if abs((lastMark[row] ?? -.infinity) - x) >= 1 {  // one mark per pixel and row
          lastMark[row] = x
          rect(x - 1.5, centreY - 5, 3, 10, fill: color, title: title)
        }
        continue
      }
      if abs(centre - x) > 0.5 {  // nudged aside: a leader from where it happened
        emit(
          "<path d=\"M\(n(x)) \(n(centreY - 6))L\(n(x)) \(n(centreY + 6))M\(n(x)) \(n(centreY))L\(n(centre)) \(n(centreY))\" "
            + "stroke=\"\(color)\" stroke-width=\"1.5\"/>\n")
      }
      emit(
        "<g><title>\(XMLText.escape(title))</title><circle cx=\"\(n(centre))\" cy=\"\(n(centreY))\" r=\"7\" "
          + "fill=\"\(color)\"/><text x=\"\(n(centre))\" y=\"\(n(centreY + 3))\" text-anchor=\"middle\" font-size=\"8\" "
          + "fill=\"#ffffff\">\(index + 1)</text></g>\n")
      if findingText {
        texts.append(
          ("[\(finding.rule.id)] \(finding.message)", title, color, centre, centreY, row, finding.rule.id.count + 6))
      }
    }
    // The texts once every marker has its place, so a text never pushes a marker away.
    for text in texts {
      if let placed = labels.placeText(
        text.text, after: text.centre + 10, before: text.centre - 10, y: text.y - 6, row: text.row,
        minimum: text.minimum)
      {
        sideText(
          placed.text, x: placed.x, y: text.y + 4, anchorEnd: placed.anchorEnd,
          beside: placed.x == text.centre + (placed.anchorEnd ? -10 : 10) ? text.centre : placed.x,
          color: text.color, title: text.title)
      }
    }
  }

  /// Writes each drawn task's, run's or unlaunched request's bad outcome (`killed`,
  /// `not completed`, …) right of its bar, else left of it, where there is room.
  private mutating func drawOutcomes() {
    for (kind, row) in layout.rows.sorted(by: { $0.value < $1.value }) {
      let text: String
      let (start, end): (TraceTime, TraceTime)
      switch kind {
      case .task(let index):
        let task = model.tasks[index]
        guard task.outcome != .ended else { continue }
        text = task.outcome == .killed ? "expired, never ended" : task.outcome.rawValue
        (start, end) = (task.start, task.end)
      case .run(let index):
        let run = model.runs[index]
        guard run.outcome != .completed else { continue }
        text = run.outcome.rawValue
        (start, end) = (run.start, run.end)
      case .request(let index):
        let submission = model.submissions[index]
        text =
          submission.fate == .cancelled
          ? "cancelled, never launched" : "pending: never launched"
        (start, end) = (submission.time, submission.settled ?? model.end)
      default: continue
      }
      guard let clipped = layout.window.clip(start, end) else { continue }
      let y = layout.top(ofRow: row)
      if let placed = labels.placeText(
        text, after: layout.x(clipped.end) + 4, before: layout.x(clipped.start) - 4, y: y + 2, row: row,
        minimum: text.count, floor: layout.plotLeft)
      {
        let edge = layout.x(placed.anchorEnd ? clipped.start : clipped.end)
        let beside = placed.x == edge + (placed.anchorEnd ? -4 : 4) ? edge : placed.x
        sideText(
          placed.text, x: placed.x, y: y + 12, anchorEnd: placed.anchorEnd, beside: beside, color: "#424242",
          title: text)
      }
    }
  }

  /// Text beside a marker or a bar, starting at `x` (ending there when `anchorEnd`).
  /// `beside` is the marker's or the bar edge's x when the text stands right beside it,
  /// else `x` itself: the page's zoom keeps a text beside what it describes, and one
  /// that slid past something in the way where it was placed.
  private mutating func sideText(
    _ text: String, x: Double, y: Double, anchorEnd: Bool, beside: Double, color: String, title: String
  ) {
    let anchor = anchorEnd ? " text-anchor=\"end\"" : ""
    emit(
      "<text x=\"\(n(x))\" y=\"\(n(y))\"\(anchor)\(at(beside)) fill=\"\(color)\"><title>\(XMLText.escape(title))</title>"
        + XMLText.escape(text) + "</text>\n")
  }

  // MARK: Lanes

  private mutating func drawLanes() {
    var y = Self.lanesTop
    if layout.groups.isEmpty {
      label("No tasks, scheduler runs or work in this window.", x: 12, y: y + 14, color: "#555555")
    }
    for group in layout.groups {
      let count = group.lanes.count == group.total ? "\(group.total)" : "\(group.lanes.count) of \(group.total)"
      let header = "\(group.group.title) (\(count))"
      label(header, x: 12, y: y + 14, bold: true)
      labels.take(.init(x: 12, y: y + 3, width: SVGLabelLayout.width(of: header), height: 12), row: row)
      row += 1
      y += SVGTimelineLayout.headerHeight
      for (position, lane) in group.lanes.enumerated() {
        defer { row += 1 }
        if position % 2 == 1 {
          emit(
            "<rect x=\"0\" y=\"\(n(y))\" width=\"\(n(SVGTimelineLayout.width))\" height=\"16\" fill=\"#f5f7fa\" pointer-events=\"none\"/>\n"
          )
        }
        switch lane.kind {
        case .task(let index): drawTask(model.tasks[index], y: y)
        case .run(let index): drawRun(model.runs[index], y: y)
        case .work(let index): drawWork(model.works[index], y: y)
        case .session(let index): drawSession(model.sessions[index], y: y)
        case .service(let index): drawService(model.services[index], y: y)
        case .request(let index): drawRequest(index, y: y)
        case .anyTask, .anyRun: break
        }
        y += SVGTimelineLayout.laneHeight
      }
    }
  }

  private func processPrefix(_ process: Int) -> String {
    model.processes.count > 1 ? "P\(process + 1) " : ""
  }

  private mutating func drawTask(_ task: TimelineModel.TaskSlice, y: Double) {
    let name = "\(processPrefix(task.process))task \(task.id)" + (task.name.map { " \($0)" } ?? "")
    laneLabel(name, y: y)
    var title = "\(name): \(task.outcome.rawValue)\n\(task.start)s to \(task.end)s (\(duration(task.start, task.end)))"
    if let expiredAt = task.expiredAt { title += "\nexpired at \(expiredAt)s" }
    bar(task.start, task.end, y: y, fill: SVGPalette.task(task.outcome), title: title)
    if let expiredAt = task.expiredAt { expiration(at: expiredAt, y: y, title: "\(name) expired at \(expiredAt)s") }
  }

  private mutating func drawRun(_ run: TimelineModel.RunSlice, y: Double) {
    let name = "\(processPrefix(run.process))run \(run.run) \(run.identifier)"
    laneLabel(name, y: y)
    if let index = run.submission {
      let submission = model.submissions[index]
      if let wait = layout.window.clip(submission.time, run.start) {
        let title =
          "\(run.identifier): submitted (\(submission.type.rawValue)) at \(submission.time)s, launched at \(run.start)s"
        dashedLine(wait.start, wait.end, y: y + 8, title: title)
        if layout.window.contains(submission.time) {
          emit(
            "<circle cx=\"\(n(layout.x(submission.time)))\" cy=\"\(n(y + 8))\" r=\"2.5\" fill=\"#616161\">"
              + "<title>\(XMLText.escape(title))</title></circle>\n")
        }
      }
      drawWaits(submission.waits, of: run.identifier, y: y)
    }
    let type = run.type.map { " (\($0.rawValue))" } ?? ""
    var title =
      "\(name)\(type): \(run.outcome.rawValue)\n\(run.start)s to \(run.end)s (\(duration(run.start, run.end)))"
    if let expiredAt = run.expiredAt { title += "\nexpired at \(expiredAt)s" }
    bar(run.start, run.end, y: y, fill: SVGPalette.run(run.outcome), title: title)
    if let expiredAt = run.expiredAt {
      expiration(at: expiredAt, y: y, title: "run \(run.run) expired at \(expiredAt)s")
    }
  }

  /// The stretches `waits` of the request `label` waited while due, each a band with its
  /// reasons on hover (`work.wait`, `sched.wait`).
  private mutating func drawWaits(_ waits: [TimelineModel.Wait], of label: String, y: Double) {
    for wait in waits {
      guard let clipped = layout.window.clip(wait.start, wait.end) else { continue }
      let reasons = WaitReason.allCases.filter(wait.reasons.contains).map(\.sentence).joined(separator: "; ")
      let title = "\(label) waited \(wait.start)s to \(wait.end)s (\(duration(wait.start, wait.end))): \(reasons)"
      let x = layout.x(clipped.start)
      emit(
        "<rect x=\"\(n(x))\" y=\"\(n(y + 5))\" width=\"\(n(max(layout.x(clipped.end) - x, 1.5)))\" height=\"6\" "
          + "fill=\"\(SVGPalette.pending)\" stroke=\"#616161\" stroke-width=\"0.6\" stroke-dasharray=\"2,2\">"
          + "<title>\(XMLText.escape(title))</title></rect>\n")
    }
  }

  /// A request never launched: pending (hatched) from its submission to its cancellation
  /// or the end of the trace, with the stretches it waited while due.
  private mutating func drawRequest(_ index: Int, y: Double) {
    let submission = model.submissions[index]
    let name = "\(processPrefix(submission.process))\(submission.identifier) (never launched)"
    laneLabel(name, y: y)
    let end = submission.settled ?? model.end
    let ending = submission.fate == .cancelled ? "cancelled at \(end)s" : "still pending when the trace ended"
    let title =
      "\(submission.identifier): submitted (\(submission.type.rawValue)) at \(submission.time)s, never launched; "
      + ending
    if let clipped = layout.window.clip(submission.time, end) {
      let x = layout.x(clipped.start)
      emit(
        "<rect x=\"\(n(x))\" y=\"\(n(y + 4))\" width=\"\(n(max(layout.x(clipped.end) - x, 1.5)))\" height=\"8\" "
          + "fill=\"\(SVGPalette.pending)\" stroke=\"#616161\" stroke-width=\"0.8\" stroke-dasharray=\"3,2\">"
          + "<title>\(XMLText.escape(title))</title></rect>\n")
    }
    if layout.window.contains(submission.time) {
      emit(
        "<circle cx=\"\(n(layout.x(submission.time)))\" cy=\"\(n(y + 8))\" r=\"2.5\" fill=\"#616161\">"
          + "<title>\(XMLText.escape(title))</title></circle>\n")
    }
    drawWaits(submission.waits, of: submission.identifier, y: y)
    if submission.fate == .cancelled, layout.window.contains(end) { cross(at: end, y: y, title: title) }
  }

  private mutating func cross(at time: TraceTime, y: Double, title: String) {
    let x = layout.x(time)
    emit(
      "<path d=\"M\(n(x - 3)) \(n(y + 5))L\(n(x + 3)) \(n(y + 11))M\(n(x + 3)) \(n(y + 5))L\(n(x - 3)) \(n(y + 11))\" "
        + "stroke=\"#212121\" stroke-width=\"1.5\"><title>\(XMLText.escape(title))</title></path>\n")
  }

  private mutating func drawWork(_ work: TimelineModel.WorkLane, y: Double) {
    laneLabel(work.label, y: y)
    let times =
      work.enqueues + work.cancels + work.attempts.flatMap { [$0.start, $0.end] }
      + work.waits.flatMap { [$0.start, $0.end] }
    if let first = times.min(), let last = times.max(), last > first {
      dashedLine(first, last, y: y + 8, title: "\(work.label): \(first)s to \(last)s")
    }
    for time in work.enqueues where layout.window.contains(time) {
      emit(
        "<circle cx=\"\(n(layout.x(time)))\" cy=\"\(n(y + 8))\" r=\"2.5\" fill=\"#616161\">"
          + "<title>\(XMLText.escape("\(work.label) enqueued at \(time)s"))</title></circle>\n")
    }
    drawWaits(work.waits, of: work.label, y: y)
    for attempt in work.attempts {
      var title = "\(work.label) attempt \(attempt.number): \(attempt.outcome.rawValue)"
      if let reason = attempt.stopReason { title += " (\(reason))" }
      title += "\n\(attempt.start)s to \(attempt.end)s (\(duration(attempt.start, attempt.end)))"
      if model.processes.count > 1 { title += "\nprocess \(attempt.process + 1)" }
      bar(attempt.start, attempt.end, y: y, fill: SVGPalette.attempt(attempt.outcome), title: title)
    }
    for time in work.cancels where layout.window.contains(time) {
      cross(at: time, y: y, title: "\(work.label) cancelled at \(time)s")
    }
  }

  /// A session's lane: each transfer as a bar from submit to finish, each wake as a bar
  /// from `net.wake` to the handler's call (red when the app never called it).
  private mutating func drawSession(_ session: TimelineModel.SessionLane, y: Double) {
    laneLabel(session.session, y: y)
    for transfer in session.transfers {
      let kind = transfer.kind.map { " (\($0.rawValue))" } ?? ""
      let outcome = transfer.outcome?.rawValue ?? "not finished"
      let title =
        "\(session.session) transfer \(transfer.task)\(kind): \(outcome)\n\(transfer.start)s to \(transfer.end)s "
        + "(\(duration(transfer.start, transfer.end)))"
      bar(transfer.start, transfer.end, y: y, fill: SVGPalette.transfer(transfer.outcome), title: title)
    }
    for wake in session.wakes {
      let title =
        "\(session.session) woken at \(wake.start)s: completion handler "
        + (wake.answered ? "called at \(wake.end)s" : "not called (ended at \(wake.end)s)")
      bar(wake.start, wake.end, y: y, fill: wake.answered ? SVGPalette.good : SVGPalette.bad, title: title)
    }
  }

  /// A foreground service's lane: each run orange while it owes `startForeground`, then
  /// green to its stop (red when it was refused, or its process ended it).
  private mutating func drawService(_ service: TimelineModel.ServiceLane, y: Double) {
    laneLabel(service.service, y: y)
    for run in service.runs {
      let ending: String =
        switch run.ending {
        case .stopped?: "stopped at \(run.end)s"
        case .refused(let reason)?: "refused (\(reason.rawValue)) at \(run.end)s"
        case .closed?: "ended with its process at \(run.end)s"
        case nil: "running when the trace ended"
        }
      let promoted = run.foregroundAt ?? run.end
      if promoted > run.start || run.foregroundAt == nil {
        bar(
          run.start, promoted, y: y, fill: run.foregroundAt == nil ? SVGPalette.bad : SVGPalette.late,
          title: "\(service.service) started at \(run.start)s, "
            + (run.foregroundAt.map { "startForeground at \($0)s" } ?? "never in the foreground") + "; \(ending)")
      }
      if let foregroundAt = run.foregroundAt {
        let failed = run.ending == .closed || (run.timedOutAt != nil && run.ending != .stopped)
        let fill: String =
          switch run.ending {
          case .refused?: SVGPalette.bad
          default: failed ? SVGPalette.bad : SVGPalette.good
          }
        let type = run.type.map { " (\($0.rawValue))" } ?? ", untyped"
        let timeout = run.timedOutAt.map { "; onTimeout at \($0)s" } ?? ""
        bar(
          foregroundAt, run.end, y: y, fill: fill,
          title: "\(service.service) in the foreground\(type) from \(foregroundAt)s\(timeout); \(ending)")
      }
    }
  }

  private mutating func laneLabel(_ text: String, y: Double) {
    let shown = XMLText.truncated(text, to: 36)
    labels.take(.init(x: 22, y: y + 2, width: SVGLabelLayout.width(of: shown), height: 12), row: row)
    emit(
      "<text x=\"22\" y=\"\(n(y + 12))\"><title>\(XMLText.escape(text))</title>"
        + XMLText.escape(shown) + "</text>\n")
  }

  private mutating func bar(_ start: TraceTime, _ end: TraceTime, y: Double, fill: String, title: String) {
    guard let clipped = layout.window.clip(start, end) else { return }
    let x = layout.x(clipped.start)
    labels.noteBar(.init(x: x, y: y + 3, width: max(layout.x(clipped.end) - x, 1.5), height: 10), row: row)
    emit(
      "<rect x=\"\(n(x))\" y=\"\(n(y + 3))\" width=\"\(n(max(layout.x(clipped.end) - x, 1.5)))\" height=\"10\" "
        + "fill=\"\(fill)\" stroke=\"#000000\" stroke-opacity=\"0.3\" stroke-width=\"0.5\">"
        + "<title>\(XMLText.escape(title))</title></rect>\n")
  }

  private mutating func dashedLine(_ start: TraceTime, _ end: TraceTime, y: Double, title: String) {
    guard let clipped = layout.window.clip(start, end) else { return }
    emit(
      "<line x1=\"\(n(layout.x(clipped.start)))\" y1=\"\(n(y))\" x2=\"\(n(layout.x(clipped.end)))\" y2=\"\(n(y))\" "
        + "stroke=\"#9e9e9e\" stroke-dasharray=\"2,2\"><title>\(XMLText.escape(title))</title></line>\n")
  }

  private mutating func expiration(at time: TraceTime, y: Double, title: String) {
    guard layout.window.contains(time) else { return }
    let x = layout.x(time)
    labels.take(.init(x: x - 4.5, y: y, width: 9, height: 8), row: row)
    emit(
      "<path d=\"M\(n(x - 4.5)) \(n(y))L\(n(x + 4.5)) \(n(y))L\(n(x)) \(n(y + 8))Z\" fill=\"\(SVGPalette.expiration)\" "
        + "stroke=\"#212121\" stroke-width=\"0.8\"><title>\(XMLText.escape(title))</title></path>\n")
  }

  // MARK: Pieces

  /// A rectangle with a hover title.
  mutating func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double, fill: String, title: String) {
    emit(
      "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"\(fill)\">"
        + "<title>\(XMLText.escape(title))</title></rect>\n")
  }

  /// The root's attributes for the page's script: the plot's box
  /// (`data-plot="LEFT RIGHT BOTTOM"`) and its linear stretches of time
  /// (`data-scale="LEFT:RIGHT:START:END …"`, drawing x and seconds), from which the
  /// script labels the axis at any zoom.
  private func pageAttributes(lanesBottom: Double) -> String {
    let stretches = layout.scale.segments.filter { !$0.compressed && $0.end > $0.start }.map {
      "\(n($0.left)):\(n($0.right)):\($0.start):\($0.end)"
    }
    return " data-plot=\"\(n(layout.plotLeft)) \(n(layout.plotRight)) \(n(lanesBottom))\" "
      + "data-scale=\"\(stretches.joined(separator: " "))\""
  }

  /// ` data-at="X"` inside the page (``inPage``): the drawing x a text stands beside.
  private func at(_ x: Double) -> String {
    inPage ? " data-at=\"\(n(x))\"" : ""
  }

  /// Plain text in the left column or the notes.
  mutating func label(_ text: String, x: Double, y: Double, bold: Bool = false, color: String = "#212121") {
    let weight = bold ? " font-weight=\"bold\"" : ""
    emit("<text x=\"\(n(x))\" y=\"\(n(y))\" fill=\"\(color)\"\(weight)>\(XMLText.escape(text))</text>\n")
  }

  /// Appends SVG text, passed on in blocks of about 64 KiB.
  mutating func emit(_ piece: String) {
    output.append(piece)
  }

  /// A coordinate with at most one decimal.
  func n(_ value: Double) -> String {
    if value < 0 { return "-" + n(-value) }
    let tenths = Int((value * 10).rounded())
    return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
  }

  /// A gap's length in whole seconds (`7492s`): the axis's one unit, as its ticks have it.
  static func gapLength(_ start: TraceTime, _ end: TraceTime) -> String {
    "\((end.nanoseconds - start.nanoseconds) / 1_000_000_000)s"
  }

  private func duration(_ start: TraceTime, _ end: TraceTime) -> String {
    "\(end.interval(since: start))s"
  }
}
