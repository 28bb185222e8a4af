import BackgroundTraceCLI
import Foundation
import Testing

/// `bgtrace export --format jsonl`: one object per event with the canonical field names.
@Suite struct ExportJSONLinesTests {
  let directory: String

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("bgtrace-jsonl-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func export(_ text: String, _ arguments: String...) throws -> String {
    let path = (directory as NSString).appendingPathComponent("trace.txt")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return try ExportOutput.run(path, ["--format", "jsonl"] + arguments)
  }

  @Test func threeEventsBecomeThreeObjects() throws {
    let output = try export(
      """
      bgtrace 1
      meta platform=ios
      0 app.launch
      1.25 sched.submit ident=com.example.refresh type=refresh earliest=900 network=true
      12.5 task.begin id=1 name="Save \\"doc\\""

      """)
    #expect(
      output == """
        {"time":0,"kind":"app.launch"}
        {"time":1.25,"kind":"sched.submit","ident":"com.example.refresh","type":"refresh","earliest":900,"network":true}
        {"time":12.5,"kind":"task.begin","id":1,"name":"Save \\"doc\\""}

        """)
  }

  @Test func fieldsKeepTheirTypesAndEnvironmentKeysBecomeFields() throws {
    let output = try export(
      """
      bgtrace 1
      0.000000001 env.set network=offline charging=true kind=x
      42.51 work.enqueue work=sync name=Sync backoff=linear delay=10 limit=3
      43 sched.complete run=7 success=false
      44 sched.cancel all=true
      45 mark label="tab\\there"

      """)
    #expect(
      output == """
        {"time":0.000000001,"kind":"env.set","network":"offline","charging":"true","env.kind":"x"}
        {"time":42.51,"kind":"work.enqueue","work":"sync","name":"Sync","backoff":"linear","delay":10,"limit":3}
        {"time":43,"kind":"sched.complete","run":7,"success":false}
        {"time":44,"kind":"sched.cancel","all":true}
        {"time":45,"kind":"mark","label":"tab\\there"}

        """)
  }

  @Test func theWindowKeepsTheEventsBetweenFromAndTo() throws {
    let output = try export(
      """
      bgtrace 1
      0 app.launch
      1 mark label=a
      2 mark label=b
      3 mark label=c

      """, "--from", "1", "--to", "2")
    #expect(
      output == """
        {"time":1,"kind":"mark","label":"a"}
        {"time":2,"kind":"mark","label":"b"}

        """)
  }
}
