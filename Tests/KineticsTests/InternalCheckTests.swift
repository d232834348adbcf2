import Testing

@testable import Kinetics

/// The test command (`scripts/test.sh`) builds with
/// `KINETICS_INTERNAL_CHECKS`: the animator checks its bookkeeping after
/// every operation that changes it and stops at the first that finds it
/// wrong. These tests break the bookkeeping behind the animator's back and
/// expect the next operation to stop the process, naming the fault.
@Suite("Animator: internal checks")
struct InternalCheckTests {
    #if KINETICS_INTERNAL_CHECKS
        @Test("a spring group given back once too often stops the next tick, which names it")
        func overReleasedGroup() async throws {
            let result = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                let animator = Animator()
                let x = animator.property("x", of: animator.makeTarget(), initial: 0.0)
                guard (try? animator.add(Animation<Double>.spring(.popDefault, to: 1), to: x)) != nil else { return }
                // The animation's group (the first of its method) loses its one user.
                animator.shared.springGroups[SpringMethod.rk4.index].release(
                    GroupIndex(0), configurations: animator.shared.springs)
                animator.tick(at: 1.0 / 60)
            }
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("after tick: rk4 spring group slot 0 counts 0 users, 1 hold it"), "\(message)")
        }

        @Test("an element whose owner was freed stops the next operation")
        func orphanedElement() async {
            await #expect(processExitsWith: .failure) {
                let animator = Animator()
                let x = animator.property("x", of: animator.makeTarget(), initial: 0.0)
                guard let handle = try? animator.add(Animation<Double>.basic(duration: 1, to: 1), to: x) else { return }
                // The record is marked dead while its element still runs.
                animator.status[handle.record.index].generation &+= 1
                _ = animator.pause(handle)
            }
        }

        @Test("correct use passes every check")
        func correctUse() throws {
            let animator = Animator()
            let x = animator.property("x", of: animator.makeTarget(), initial: 0.0)
            let handle = try animator.add(Animation<Double>.spring(.popDefault, to: 1), to: x)
            #expect(animator.pause(handle) && animator.resume(handle))
            for frame in 1 ... 120 { animator.tick(at: Double(frame) / 60) }
            #expect(animator.invariantViolations().isEmpty && animator[x] == 1)
        }

        @Test("a column written past its capacity without growing stops the process (debug builds)")
        func columnPastCapacity() async {
            let column = Column<Int32>(capacity: 2)
            column.appendWithinCapacity(1)
            column.appendWithinCapacity(2)
            #expect(column.count == 2 && column[1] == 2)
            await #expect(processExitsWith: .failure) {
                let full = Column<Int32>(capacity: 2)
                full.appendWithinCapacity(1)
                full.appendWithinCapacity(2)
                full.appendWithinCapacity(3)
            }
        }

        @Test("the pointers a batch loop writes through stop the process past the capacity (debug builds)")
        func pointerPastCapacity() async {
            let column = Column<Double>(capacity: 4)
            column.fill(4, with: 0)
            let pointer = ColumnPointer(column)
            pointer[3] = 1
            #expect(column[3] == 1 && pointer[3] == 1 && pointer.address(3).pointee == 1)
            #expect(column.elements.count == 4 && column.elements[3] == 1)
            await #expect(processExitsWith: .failure) {
                ColumnPointer(Column<Double>(capacity: 4))[4] = 1
            }
            await #expect(processExitsWith: .failure) {
                ColumnPointer(Column<Double>(capacity: 4)).check(-1)
            }
            await #expect(processExitsWith: .failure) {
                _ = Column<Double>(capacity: 4).pointer.address(4)
            }
        }
    #else
        @Test("the tests run with the internal checks")
        func checksAreOn() {
            Issue.record("built without KINETICS_INTERNAL_CHECKS: run the tests with scripts/test.sh")
        }
    #endif
}
