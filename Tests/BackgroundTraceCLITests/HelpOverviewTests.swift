import Testing

@testable import BackgroundTraceCLI

/// `bgtrace help`'s command list follows each command's declaration: its operands,
/// the options it cannot do without, its one other option or `[OPTIONS]`, and its
/// summary (``CommandName/synopsis``, ``CommandName/summary``).
@Suite struct HelpOverviewTests {
  @Test func eachSynopsisFollowsTheCommandsOptions() {
    #expect(CommandName.demo.synopsis == "demo [--out DIR]")
    #expect(CommandName.convert.synopsis == "convert IN OUT [--to F]")
    #expect(CommandName.export.synopsis == "export PATH --format F [OPTIONS]")
    #expect(CommandName.stats.synopsis == "stats PATH… [--platform ios|android]")
    #expect(CommandName.dump.synopsis == "dump PATH")
    #expect(CommandName.help.synopsis == "help [COMMAND]")
  }

  @Test func theOverviewListsEveryCommandOnce() {
    let overview = HelpText.text(for: nil)
    for command in CommandName.allCases {
      #expect(overview.contains("\n  \(command.synopsis)"), "\(command)")
    }
    #expect(
      overview.contains(
        """
          export PATH --format F [OPTIONS]
                                      chrome (Perfetto), jsonl, svg or html

        """))
  }
}
