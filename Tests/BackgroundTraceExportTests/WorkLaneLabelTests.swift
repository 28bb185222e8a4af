import BackgroundTrace
import BackgroundTraceExport
import Testing

/// A work's lane is labelled with its worker: the name its enqueue gives, or for work a
/// device's log shows only by its UUID, the worker's class among the tags WorkManager
/// prints where an attempt ends (androidx `WorkerWrapper`'s `Work [ id=…, tags={ … } ]`).
@Suite struct WorkLaneLabelTests {
  @Test func anImportedWorkIsLabelledWithItsWorkerClass() throws {
    let trace = try RecordedTrace(
      text: """
        bgtrace 1
        meta platform=android
        0 app.launch
        1 work.start work=40669dfb-b0cf-4f14-8c9c-2aeadc2ccb4e attempt=0
        3 work.result work=40669dfb-b0cf-4f14-8c9c-2aeadc2ccb4e attempt=0 outcome=success tags="com.example.sync.SyncWorker,sync"
        4 work.enqueue work=sync-1 name=DataSyncWorker
        5 work.start work=sync-1 attempt=0
        6 work.result work=sync-1 attempt=0 outcome=success
        7 work.start work=plain attempt=0
        8 work.result work=plain attempt=0 outcome=success tags=nightly

        """)
    let svg = ExportFormat.svg.render(trace, named: "labels")
    #expect(svg.contains(">SyncWorker 40669dfb…<"))
    #expect(!svg.contains(">40669dfb-b0cf-4f14-8c9c-2aeadc2ccb4e<"))
    #expect(svg.contains(">sync-1 DataSyncWorker<"))
    #expect(svg.contains(">plain<"))
  }
}
