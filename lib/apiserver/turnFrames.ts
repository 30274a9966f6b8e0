// One event reaches all its watchers in the same turn of the event loop (the watch cache's
// delivery path), each as the same bytes for a given media type. Its frame is made once per
// turn and shared: a fan-out of a 256 KiB object to 2,000 watchers holds one frame, not 2,000,
// also while watchers that stopped reading keep the rest of it. Frames are forgotten at the
// next turn, so nothing outlives the writes that use it.

type Frames = WeakMap<object, Map<string, Buffer>>;

export class TurnFrames {
  private frames: Frames = new WeakMap();
  private clearing = false;

  /** The frame of `object` under `key` (media type and event type) made in this turn, or make(). */
  get(object: object, key: string, make: () => Buffer): Buffer {
    if (!Object.isFrozen(object)) return make();
    let byKey = this.frames.get(object);
    const made = byKey?.get(key);
    if (made) return made;
    const frame = make();
    if (!byKey) {
      byKey = new Map();
      this.frames.set(object, byKey);
    }
    byKey.set(key, frame);
    if (!this.clearing) {
      this.clearing = true;
      setImmediate(() => {
        this.frames = new WeakMap();
        this.clearing = false;
      });
    }
    return frame;
  }
}
