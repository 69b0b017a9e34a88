// The table's sounds, synthesised with the Web Audio API (no audio files): the turn beep, a roll,
// a call, the revolver's click and bang. Nothing plays while `isMuted()` says so; browsers let a
// page play sound only once it has had a click or a key (wake() then resumes it).

let audio = null; // the AudioContext, made on first use

function context() {
  const Context = window.AudioContext ?? window.webkitAudioContext;
  if (!Context) return null;
  audio ??= new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** A tone of `type` from `from` Hz to `to` Hz over `seconds`, starting `delay` s from now. */
function tone(ctx, { type = "sine", from, to = from, seconds, volume = 0.15, delay = 0 }) {
  const start = ctx.currentTime + delay;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = from;
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, start + seconds);
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + seconds);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + seconds);
}

/** A burst of noise `seconds` long through a low-pass filter at `cutoff` Hz, `delay` s from now. */
function noise(ctx, { seconds, cutoff, volume = 0.3, delay = 0 }) {
  const start = ctx.currentTime + delay;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * seconds), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = buffer;
  filter.type = "lowpass";
  filter.frequency.value = cutoff;
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(start);
}

const SOUNDS = {
  /** Your turn: one short high beep (880 Hz). */
  turn: (ctx) => tone(ctx, { from: 880, seconds: 0.25 }),
  /** Dice rattling in a cup: a few short knocks. */
  roll: (ctx) => [0, 0.07, 0.15, 0.21].forEach((delay) => noise(ctx, { seconds: 0.05, cutoff: 2500, volume: 0.25, delay })),
  /** A call: a falling two-note horn. */
  call: (ctx) => {
    tone(ctx, { type: "triangle", from: 523, seconds: 0.18 });
    tone(ctx, { type: "triangle", from: 392, to: 330, seconds: 0.3, delay: 0.16 });
  },
  /** The revolver's empty chamber: a dry tick. */
  click: (ctx) => tone(ctx, { type: "square", from: 1800, to: 600, seconds: 0.04, volume: 0.12 }),
  /** The revolver's shot: a low boom. */
  bang: (ctx) => {
    noise(ctx, { seconds: 0.6, cutoff: 900, volume: 0.6 });
    tone(ctx, { from: 120, to: 40, seconds: 0.4, volume: 0.3 });
  },
};

/** The sound names `play` knows. */
export const SOUND_NAMES = Object.keys(SOUNDS);

/** Play the sound `name` (one of SOUND_NAMES) unless `isMuted()`; never throws. */
export function makePlayer(isMuted) {
  return function play(name) {
    if (isMuted() || !SOUNDS[name]) return;
    try {
      const ctx = context();
      if (ctx) SOUNDS[name](ctx);
    } catch {
      // no sound: the page still shows what happened
    }
  };
}

/** Resume a context the browser suspended, after the page had a click or a key. */
export function wake() {
  if (audio?.state === "suspended") audio.resume().catch(() => {});
}
