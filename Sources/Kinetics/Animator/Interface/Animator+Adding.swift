// Adding animations: boxes (reused from pools), records and keys.

extension Animator {
    /// Adds `animation` of `property` under `key` and renders its first
    /// frame at once when its begin time has come.
    ///
    /// Without a key, the animation runs under `animation-N`, N the count of
    /// animations this animator made before it (a group's children count):
    /// ``keys(on:)`` lists that name, and finding, removing or adding under
    /// it work as under any key. (The animator keeps the number and makes
    /// the string only when asked for it, so such an add makes no string.)
    ///
    /// Adding under a key the target already uses stops (cancels) and
    /// replaces the animation there, and any animation that its stop
    /// callback adds under the same key; adding the same animation (or a copy of
    /// it) under its key again is a no-op that returns the running handle.
    /// A spring that nothing observes, replacing one of the same method that
    /// nothing observes, takes its place in place (its record, storage and
    /// key), leaving what removing and adding would. A spring that nothing
    /// observes and that starts now, of `Double` or a `SIMD2`, `SIMD3` or
    /// `SIMD4` of `Double`, is added without an object of its own, so that
    /// adding it allocates nothing once the animator has grown; what
    /// observes it later (a tracer, a pause) changes nothing of what it
    /// does.
    ///
    /// The animation is moved in: pass a temporary, or `consume` a variable,
    /// and it is not copied (an animation is a few hundred bytes).
    ///
    /// - Throws: ``ParameterError`` naming a setting that is out of range.
    /// - Complexity: O(1) expected.
    @discardableResult
    @_specialize(exported:true,where Value == Double)
    @_specialize(exported:true,where Value == SIMD2<Double>)
    @_specialize(exported:true,where Value == SIMD3<Double>)
    @_specialize(exported:true,where Value == SIMD4<Double>)
    public func add<Value: AnimatableVector>(
        _ animation: consuming Animation<Value>, to property: PropertyHandle<Value>, forKey key: String? = nil
    ) throws(ParameterError) -> AnimationHandle {
        try add(consume animation, to: property, key: key, prefix: nil)
    }

    /// Adds `animation` of `property` under `key`, a key made once: what
    /// adding under the key's name does, without hashing the name again
    /// (``AnimationKey``).
    ///
    /// - Throws: ``ParameterError`` naming a setting that is out of range.
    /// - Complexity: O(1) expected.
    @discardableResult
    @_specialize(exported:true,where Value == Double)
    @_specialize(exported:true,where Value == SIMD2<Double>)
    @_specialize(exported:true,where Value == SIMD3<Double>)
    @_specialize(exported:true,where Value == SIMD4<Double>)
    public func add<Value: AnimatableVector>(
        _ animation: consuming Animation<Value>, to property: PropertyHandle<Value>, forKey key: AnimationKey
    ) throws(ParameterError) -> AnimationHandle {
        try add(consume animation, to: property, key: key.name, prefix: key.prefix)
    }

    /// Both adds: `prefix` is the key's ``KeyHash/Prefix`` when the caller
    /// made it already.
    @inline(__always)
    func add<Value: AnimatableVector>(
        _ animation: consuming Animation<Value>, to property: PropertyHandle<Value>, key: String?,
        prefix: KeyHash.Prefix?
    ) throws(ParameterError) -> AnimationHandle {
        defer { checkInternally(after: "add") }
        let spring = try animation.validate()
        let id = animation.id
        let life = LifeCycle(animation)
        // The key is looked up once, for the in-place check and for
        // registering: from the property's hint when it still holds, else
        // by its hash.
        let hint = keyedRecord(of: property)
        let lookup: KeyLookup? =
            if let key { KeyLookup(registry, property.target, key, hint: hint, prefix: prefix) } else { nil }
        let handle: AnimationHandle
        if let lookup, let spring, lookup.existing != nil,
            let index = quietSpringToReplace(
                Value.self, id: id, startsQuietNow: startsQuietNow(animation, life: life), method: spring.method,
                slot: property.slot, running: lookup.existing)
        {
            handle = replaceInPlace(animation, index: index, parameters: spring.parameters, life: life)
        } else if let spring, runsBare(animation, life: life) {
            handle = addBare(animation, spring, to: property, id: id, key: key, life: life, lookup: lookup)
        } else {
            // Moved into its box, not copied: a copy of an animation goes
            // through its type's generic value witness.
            let box = makePropertyBox(consume animation, property: property)
            handle = register(box, id: id, target: property.target, key: key, life: life, lookup: lookup)
        }
        if key != nil && handle.record != hint { setKeyedRecord(handle.record, of: property) }
        return handle
    }

    /// The record last added to `property` under a caller's key, or none
    /// (``Lane/keyedRecords``).
    @inline(__always)
    func keyedRecord<Value: AnimatableVector>(of property: PropertyHandle<Value>) -> RecordIndex {
        onLane(width: Self.width(of: Value.self), KeyedRecord(slot: property.slot, newRecord: nil))
    }

    /// Makes `record` the one last added to `property` under a caller's key.
    @inline(__always)
    func setKeyedRecord<Value: AnimatableVector>(_ record: RecordIndex, of property: PropertyHandle<Value>) {
        _ = onLane(width: Self.width(of: Value.self), KeyedRecord(slot: property.slot, newRecord: record))
    }

    /// Reads a slot's keyed record, after setting it to `newRecord` if given.
    private struct KeyedRecord: LaneOperation {
        let slot: PropertySlot
        let newRecord: RecordIndex?

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) -> RecordIndex {
            if let newRecord { lane.keyedRecords[slot.index] = newRecord }
            return lane.keyedRecords[slot.index]
        }
    }

    /// Adds a group (a sequence or a concurrent group of animations, nestable)
    /// on `target` under `key`.
    ///
    /// - Throws: ``ParameterError`` naming a child's setting that is out of range.
    @discardableResult
    public func add(_ group: AnimationGroup, on target: TargetID, forKey key: String? = nil) throws(ParameterError)
        -> AnimationHandle
    {
        defer { checkInternally(after: "add") }
        try group.validate()
        return register(GroupBox(group), id: group.id, target: target, key: key, life: LifeCycle(group))
    }

    func makePropertyBox<Value: AnimatableVector>(
        _ animation: consuming Animation<Value>, property: PropertyHandle<Value>
    )
        -> AnimationBox
    {
        // The one kind of width dispatch not written as a ``LaneOperation``
        // (see there): this one moves the animation into its box.
        switch Self.width(of: Value.self) {
        case 1: propertyBox(animation, slot: property.slot, lane: lane1, width: 1)
        case 2: propertyBox(animation, slot: property.slot, lane: lane2, width: 2)
        default: propertyBox(animation, slot: property.slot, lane: lane4, width: 4)
        }
    }

    func propertyBox<Value: AnimatableVector, Stored: AnimatableVector>(
        _ animation: consuming Animation<Value>, slot: PropertySlot, lane: Lane<Stored>, width: Int
    ) -> AnimationBox {
        if let box = reusableBox(PropertyAnimationBox<Value, Stored>.self) {
            box.reset(animation, slot: slot)
            return box
        }
        reserveRoom(for: PropertyAnimationBox<Value, Stored>.self)
        return PropertyAnimationBox<Value, Stored>(animation, slot: slot, lane: lane, width: width)
    }

    /// Counts a new box of `type` and makes room for it in its pool and in
    /// the retired list, so that retiring and recycling boxes never
    /// allocates: neither list can hold more boxes than were made. (Without
    /// this the pools grew late, in a frame of churn seconds after the
    /// animator seemed grown.) Room grows by doubling, with the making of
    /// boxes, which allocates anyway.
    func reserveRoom<Box: AnimationBox>(for type: Box.Type) {
        state.boxPools.noteMade(ObjectIdentifier(type))
        state.boxesMade += 1
        if state.retiredBoxes.capacity < state.boxesMade {
            state.retiredBoxes.reserveCapacity(Swift.max(state.boxesMade, 2 * state.retiredBoxes.capacity))
        }
    }

    /// Registers `box` under `key` (`lookup`: the key's ``KeyLookup`` on
    /// `target`, if the caller made one since the registry last changed),
    /// replacing what runs there, and starts it if its begin time has come.
    /// Out of line: inlined into the animation's add, it crowded the
    /// registers of the add's replacement in place (28 instructions more a
    /// replacement, counted).
    @inline(never)
    func register(
        _ box: AnimationBox, id: AnimationID, target: TargetID, key: String?, life: LifeCycle,
        lookup: KeyLookup? = nil
    ) -> AnimationHandle {
        let (handle, isNew) = claimRecord(box, id: id, target: target, key: key, life: life, lookup: lookup)
        if isNew { startIfDue(handle, at: time) }
        return handle
    }

    /// Makes a record for `box` (nil: a bare spring, which the caller
    /// starts) under `key`, replacing what runs there, and registers it; not
    /// started. When the animation `id` itself runs under the key already,
    /// returns its handle instead, and false.
    @inline(__always)
    func claimRecord(
        _ box: AnimationBox?, id: AnimationID, target: TargetID, key: String?, life: LifeCycle, lookup: KeyLookup?
    ) -> (handle: AnimationHandle, isNew: Bool) {
        precondition(state.phase != .advancing, "the animator cannot be changed while animations advance")
        // Without a key, the animation runs under the name of its add's
        // number (``GeneratedKey``), which the registry keeps as the number.
        let number = state.nextSequence
        let lookup = lookup ?? KeyLookup(registry, target, key, generated: number)
        let hash = lookup.hash
        if let existing = lookup.existing {
            if records[existing.index].id == id { return (registeredHandle(existing), false) }
            let registered = state.registrations
            cancel(registeredHandle(existing))
            // The replaced animation's stop callback may have added another
            // animation under the same key; this one, added last by the
            // caller, replaces that too. (Looked up again only if anything
            // was added: a lookup hashes the key.)
            if state.registrations != registered {
                while let again =
                    if let key { registry.find(target, key, hash: hash) } else {
                        registry.find(target, generated: number, hash: hash)
                    }
                {
                    cancel(registeredHandle(again))
                }
            }
        }
        let handle = makeRecord(box: box, id: id, target: target, life: life, parent: nil, time: time)
        if let key {
            registry.insert(handle.record, target: target, key: key, hash: hash)
        } else {
            registry.insert(handle.record, target: target, generated: number, hash: hash)
        }
        state.registrations &+= 1
        return (handle, true)
    }

    /// Makes room for records `0 ..< capacity` in the records and in what
    /// grows with them.
    func reserveRecords(_ capacity: Int) {
        records.reserve(capacity)
        let capacity = records.capacity
        status.reserve(capacity)
        places.reserve(capacity)
        outputs.output.reserveQuiet(capacity)
        freeRecords.reserve(capacity)
        registry.reserve(capacity)
    }

    /// Creates a record for `box`, waiting to start at its begin time.
    func makeRecord(
        box: AnimationBox?, id: AnimationID, target: TargetID, life: LifeCycle, parent: AnimationHandle?, time: Double
    ) -> AnimationHandle {
        state.nextSequence += 1
        guard let index = freeRecords.popLast() else {
            // A new record, appended as it will be (its generation the
            // first): each column written once.
            let index = RecordIndex(records.count)
            // What grows with the records grows when they do
            // (``reserveRecords(_:)``): room in the records is room in each.
            if records.count == records.capacity { reserveRecords(Swift.max(16, 2 * records.count)) }
            // (A record built with its box is copied through its type's
            // value witness: an empty one is appended, and what differs
            // written in place.)
            records.appendWithinCapacity(AnimationRecord())
            let record = ColumnPointer(records).address(index.index)
            record.pointee.id = id
            record.pointee.life = life
            if let box { record.pointee.box = box }
            status.appendWithinCapacity(RecordStatus(generation: 1, live: true))
            places.appendWithinCapacity(RecordPlace(target: target, parent: parent))
            return AnimationHandle(record: index, generation: 1)
        }
        // A quietly finished animation left its box here.
        if let left = records[index.index].box {
            left.forgetRun()
            if left.isReusable { state.retiredBoxes.append(left) }
        }
        let generation = status[index.index].generation &+ 1
        status[index.index] = RecordStatus(generation: generation, live: true)
        records[index.index].reuse(id: id, life: life, box: box)
        places[index.index] = RecordPlace(target: target, parent: parent)
        return AnimationHandle(record: index, generation: generation)
    }
}

/// A key's hash on its target and the record registered under it, if any:
/// looked up once per add.
struct KeyLookup {
    let hash: Int
    let existing: RecordIndex?

    /// `prefix`: the key's, when the caller has it (``AnimationKey``).
    init(_ registry: KeyRegistry, _ target: TargetID, _ key: String, prefix: KeyHash.Prefix? = nil) {
        hash = registry.hash(target, key, prefix: prefix)
        existing = registry.find(target, key, hash: hash)
    }

    /// The lookup of `key`, or without one of the name the animator gives
    /// its add number `number` (``GeneratedKey``).
    init(_ registry: KeyRegistry, _ target: TargetID, _ key: String?, generated number: UInt64) {
        if let key {
            self.init(registry, target, key)
        } else {
            let hash = registry.hash(target, generated: number)
            self.init(hash: hash, existing: registry.find(target, generated: number, hash: hash))
        }
    }

    /// The lookup, from `hint` when it is the record registered under `key`
    /// on `target`: then its entry has the key's hash, and neither hashing
    /// nor the table is needed. (A property animated again under the key it
    /// runs under, as a tap that interrupts an animation does.)
    @inline(__always)
    init(_ registry: KeyRegistry, _ target: TargetID, _ key: String, hint: RecordIndex, prefix: KeyHash.Prefix?) {
        if let known = registry.hash(ifRegistered: hint, as: target, key) {
            self.init(hash: known, existing: hint)
        } else {
            self.init(registry, target, key, prefix: prefix)
        }
    }

    private init(hash: Int, existing: RecordIndex?) {
        self.hash = hash
        self.existing = existing
    }
}
