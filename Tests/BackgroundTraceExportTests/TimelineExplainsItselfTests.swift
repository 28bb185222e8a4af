import BackgroundTrace
import BackgroundTraceCheck
import Foundation
import TestSupport
import Testing

@testable import BackgroundTraceExport

/// The SVG and HTML timelines show their essentials without hovering: a finding on the lane of what it is about, a
/// request never launched drawn as pending, a state left at once marked, no label over
/// another, and a height that follows the lanes.
@Suite struct TimelineExplainsItselfTests {
  static func model(_ body: String, name: String = "hand.txt") throws -> TimelineModel {
    let text = "bgtrace 1\nmeta app=sample platform=ios budget=30\n" + body
    var reader = try TraceReader(source: MemoryByteSource(Array(text.utf8)), file: name)
    return TimelineModel.build(try reader.readAll(), name: name)
  }

  /// The SVG (or, with `findingText`, the HTML's SVG) and the boxes its labels took.
  static func draw(_ model: TimelineModel, findingText: Bool = false) -> (svg: String, boxes: [SVGLabelLayout.Box]) {
    var svg = ""
    let boxes = SVGTimeline.write(
      model, window: TimeWindow(from: nil, to: nil, end: model.end), standalone: true, findingText: findingText
    ) { svg += $0 }
    return (svg, boxes)
  }

  static func expectNoOverlap(_ boxes: [SVGLabelLayout.Box], sourceLocation: SourceLocation = #_sourceLocation) {
    for (index, box) in boxes.enumerated() {
      for other in boxes[(index + 1)...] where box.intersects(other) {
        Issue.record("\(box) overlaps \(other)", sourceLocation: sourceLocation)
      }
    }
  }

  static let expiredTask = """
    0 app.launch
    0 app.state to=active
    10 app.state to=inactive
    10 app.state to=background
    10 task.begin id=1 name=Upload
    40 task.expire id=1
    41 app.state to=suspended

    """

  @Test func aFindingIsDrawnOnTheLaneOfItsTask() throws {
    let model = try Self.model(Self.expiredTask)
    #expect(model.findings.count == 1)
    #expect(model.findings.first?.subject == .task(0))
    let (svg, _) = Self.draw(model)
    // The tasks' header takes 132-152, the task's lane 152-168: the marker is centred on 160.
    #expect(svg.contains("cy=\"160\" r=\"7\" fill=\"#c62828\"/><text"))
    #expect(!svg.contains("stroke-opacity=\"0.55\" stroke-dasharray"))  // no line dropped from the findings row
    #expect(svg.contains(">expired, never ended</text>"))  // the outcome, written beside the bar
    // Numbered in the SVG, the text only in the list; the HTML writes it beside the marker.
    #expect(!svg.contains(">[task-expired-not-ended] task 1"))
    // The HTML writes it beside the marker where that covers no bar. Here the bar runs up
    // to the marker and the plot ends right of it: the text is in the list only.
    let (page, _) = Self.draw(model, findingText: true)
    #expect(!page.contains(">[task-expired-not-ended] task 1"))
    #expect(page.contains(">41s  error  [task-expired-not-ended]  task 1 (&quot;Upload&quot;) expired at 40s"))
  }

  @Test func aFindingsTextNeverCoversABar() throws {
    // A task ended twice, on a lane with nothing right of the second end: the text stands
    // there, beside its marker.
    let model = try Self.model(
      """
      0 app.launch
      0 app.state to=active
      1 task.begin id=1
      3 task.end id=1
      4 task.end id=1
      5 task.begin id=2
      40 task.end id=2

      """)
    let (page, _) = Self.draw(model, findingText: true)
    #expect(page.contains(">[task-double-end] task 1"))
    // Every text placed beside a marker or a bar keeps clear of every bar (the 10-pixel
    // rects), here and where the bar runs up to the marker.
    for model in [model, try Self.model(Self.expiredTask)] {
      let (page, boxes) = Self.draw(model, findingText: true)
      let bars = Self.bars(in: page)
      #expect(!bars.isEmpty)
      for box in boxes where box.height == 12 {
        for bar in bars where box.intersects(bar) {
          Issue.record("text \(box) covers the bar \(bar)")
        }
      }
    }
  }

  /// The bars of `svg`: its rects 10 pixels high.
  static func bars(in svg: String) -> [SVGLabelLayout.Box] {
    svg.split(separator: "\n").compactMap { line -> SVGLabelLayout.Box? in
      guard line.hasPrefix("<rect "), line.contains(" height=\"10\"") else { return nil }
      func number(_ name: String) -> Double? {
        guard let range = line.range(of: " \(name)=\"") else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != "\"" })
      }
      guard let x = number("x"), let y = number("y"), let width = number("width") else { return nil }
      return .init(x: x, y: y, width: width, height: 10)
    }
  }

  /// Three tasks of one name (OneSignal's, Traces/import/ios/xcode-onesignal-still-not-ended-multi),
  /// each expired and never ended: each finding is drawn on the lane of the task its
  /// message numbers, not on the first task whose name the message holds.
  @Test func findingsOfTasksWithOneNameAreDrawnOnTheirOwnLanes() throws {
    let path = Repository.traces.appendingPathComponent("import/ios/xcode-onesignal-still-not-ended-multi.expected.txt")
    var reader = try TraceReader(path: path.path)
    let model = TimelineModel.build(try reader.readAll(), name: "onesignal")
    #expect(model.findings.count == 3)
    for located in model.findings {
      guard case .task(let index)? = located.subject else {
        Issue.record("\(located.finding.message) has no task lane")
        continue
      }
      #expect(located.finding.message.hasPrefix("task \(model.tasks[index].id) "), "\(located.finding.message)")
    }
    #expect(Set(model.findings.compactMap(\.subject)).count == 3)
  }

  @Test func aDeadlineNoticedAtAnotherEventIsDrawnOnTheLaneItNames() throws {
    // task-over-budget shows at the env.set after the deadline, which touches no task:
    // the message's `task 1` puts it on that task's lane, not the env.set's.
    let model = try Self.model(
      """
      0 app.launch
      0.2 app.state to=active
      1 app.state to=background
      1 task.begin id=1
      32 env.set network=offline
      33 task.end id=1

      """)
    #expect(model.findings.map(\.subject) == [.task(0)])
    let svg = Self.draw(model).svg
    #expect(svg.contains("<g><title>#1 warning [task-over-budget] at 32s: task 1 stayed open"))
    #expect(svg.contains("cy=\"160\" r=\"7\" fill=\"#ef6c00\""))
  }

  @Test func anEndOfNoTaskIsDrawnOnTheTasksHeader() throws {
    let model = try Self.model(
      """
      0 app.launch
      0 app.state to=active
      1 task.begin id=1
      2 task.end id=1
      3 task.end id=0

      """)
    #expect(model.findings.map(\.subject) == [.anyTask])
    let (svg, _) = Self.draw(model)
    #expect(svg.contains("cy=\"140\" r=\"7\""))  // the header row 132-152, the marker at its top + 8
  }

  @Test func aRequestNeverLaunchedIsDrawnPendingToTheEnd() throws {
    let model = try Self.model(
      """
      0 app.launch
      0 sched.register ident=com.example.refresh
      5 sched.submit ident=com.example.refresh type=refresh earliest=3600
      20 app.state to=active

      """)
    #expect(model.submissions.map(\.fate) == [.pending])
    let (svg, _) = Self.draw(model)
    #expect(svg.contains(">com.example.refresh (never launched)</text>"))
    #expect(
      svg.contains(
        "<title>com.example.refresh: submitted (refresh) at 5s, never launched; still pending when the trace ended"))
    #expect(svg.contains("fill=\"#eeeeee\" stroke=\"#616161\" stroke-width=\"0.8\" stroke-dasharray=\"3,2\">"))
    #expect(svg.contains(">pending: never launched</text>"))
  }

  @Test func aCancelledRequestIsPendingToItsCancelAndALaunchedOneIsNot() throws {
    let model = try Self.model(
      """
      0 app.launch
      0 sched.register ident=a
      0 sched.register ident=b
      1 sched.submit ident=a type=refresh earliest=10
      1 sched.submit ident=b type=refresh earliest=10
      4 sched.cancel ident=a
      12 app.state to=background
      12 sched.launch ident=b run=1
      13 sched.complete run=1 success=true

      """)
    #expect(model.submissions.map(\.fate) == [.cancelled, .launched])
    #expect(model.submissions.map(\.settled) == [TraceTime(seconds: 4), TraceTime(seconds: 12)])
    #expect(model.submissions[1].run == 0)
    let (svg, _) = Self.draw(model)
    #expect(svg.contains("a: submitted (refresh) at 1s, never launched; cancelled at 4s"))
    #expect(!svg.contains("b (never launched)"))
  }

  @Test func aStateLeftAtOnceIsMarkedAndTheTracesEndIsNot() throws {
    let model = try Self.model(Self.expiredTask)
    // inactive 10-10 is momentary; suspended at 41, where the trace ends, is not.
    #expect(model.momentaryStates.map(\.state) == ["inactive"])
    let (svg, _) = Self.draw(model)
    #expect(svg.contains("<title>inactive in process 1 at 10s, left at once (0s)</title>"))
  }

  @Test func theHeightFollowsTheLanes() throws {
    // The header 132; a group's header 20 and 16 a lane; 16 to the legend; 5 legend rows of 18, and 8.
    func svgLine(tasks: Int) throws -> String {
      var body = "0 app.launch\n0 app.state to=active\n"
      for id in 1...tasks { body += "1 task.begin id=\(id)\n" }
      for id in 1...tasks { body += "2 task.end id=\(id)\n" }
      let (svg, _) = Self.draw(try Self.model(body))
      return String(svg.split(separator: "\n")[1])
    }
    #expect(try svgLine(tasks: 1).contains(" width=\"1200\" height=\"282\" "))  // 132 + 20 + 16 + 16 + 98
    #expect(try svgLine(tasks: 3).contains(" width=\"1200\" height=\"314\" "))  // 132 + 20 + 48 + 16 + 98
  }

  @Test func theDemosLabelsDoNotOverlap() throws {
    let path = Repository.root.appendingPathComponent("Traces/examples/demo.txt").path
    var reader = try TraceReader(path: path)
    let model = TimelineModel.build(try reader.readAll(), name: path)
    #expect(model.findings.map(\.subject) == [.anyTask])
    for findingText in [false, true] {
      let (_, boxes) = Self.draw(model, findingText: findingText)
      #expect(boxes.count >= 8)  // 6 lane labels, 3 headers, an expiration, the finding, the pending note
      Self.expectNoOverlap(boxes)
    }
  }

  @Test func crowdedFindingsAreNudgedApartAndTheirTextsDoNotOverlap() throws {
    // Twelve ends of no task at one instant, beside a task that expired there: all on two rows.
    var body = "0 app.launch\n0 app.state to=background\n0 task.begin id=1 name=Crowd\n"
    body += "20 task.expire id=1\n"
    for _ in 1...12 { body += "20 task.end id=7\n" }
    body += "20 task.end id=1\n"
    let model = try Self.model(body)
    #expect(model.findings.count == 12)
    for findingText in [false, true] {
      let (svg, boxes) = Self.draw(model, findingText: findingText)
      Self.expectNoOverlap(boxes)
      // Every finding numbered on the tasks' header (and again in the list below).
      #expect(svg.components(separatedBy: "cy=\"140\" r=\"7\"").count - 1 == 12)
      let markers = boxes.filter { $0.width == 14 && $0.height == 14 }
      #expect(markers.count == 12)
      #expect(Set(markers.map(\.x)).count == 12)  // side by side, none on another
    }
    let (page, boxes) = Self.draw(model, findingText: true)
    #expect(page.contains("[task-unknown-end]"))
    #expect(boxes.allSatisfy { $0.x >= 4 && $0.x + $0.width <= 1196 })
  }
}
