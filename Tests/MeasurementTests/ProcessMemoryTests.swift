import Testing

@testable import Measurement

@Suite("the process's memory", .timeLimit(.minutes(10)))
struct ProcessMemoryTests {
  @Test("VmRSS is read from a status text in kB, and nothing else is taken for it")
  func statusText() {
    let status = "Name:\tcachebench\nVmPeak:\t  912340 kB\nVmRSS:\t   51234 kB\nRssAnon:\t   40000 kB\n"
    #expect(ProcessMemory.residentBytes(inStatus: status) == 51_234 * 1_024)
    #expect(ProcessMemory.residentBytes(inStatus: "Name:\tx\nRssAnon:\t 4 kB\n") == nil)
    #expect(ProcessMemory.residentBytes(inStatus: "VmRSS:\t12 MB\n") == nil)
  }

  #if os(Linux)
    @Test("this process has a resident set, and jemalloc live bytes")
    func thisProcess() throws {
      #expect((ProcessMemory.residentBytes() ?? 0) > 1_000_000)
      #expect(try ProcessMemory.liveBytes() > 0)
    }
  #endif
}
