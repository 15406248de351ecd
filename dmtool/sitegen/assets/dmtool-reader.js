// The storybook reader: plays the compiled story that `dmtool odds --runs` walks
// (dmtool/storygraph/reader.py writes it into the page as JSON), one entry at a time.
// One interpreter, two drivers: a person answers each question with buttons and dice, or
// `autoplay(seed, runs)` answers as the command line does (Python's Mersenne Twister,
// drawn in the same order), so a browser test can compare paths with `odds --paths`.
// The reader's place is the list of its answers, kept in localStorage and replayed.
(function () {
  "use strict";
  var GOTO = 0, EXIT = 1, CHOICE = 2, SCORE = 3, TEST = 4, SPAWN = 5, GAIN_CODA = 6, IF = 7,
    CHOOSE_WHEN = 8, MAY = 9, SENTIENCE = 10, TRAP = 11, RELEASE = 12, LOSE_CODA = 13;
  var ENDINGS = ["A", "B", "C", "D"];

  // ---- Python's random.Random(seed): MT19937 seeded by init_by_array --------------------
  function PyRandom(seed) {
    var mt = new Uint32Array(624), mti = 625;
    function initGenrand(s) {
      mt[0] = s >>> 0;
      for (mti = 1; mti < 624; mti++) {
        var p = mt[mti - 1] ^ (mt[mti - 1] >>> 30);
        mt[mti] = (Math.imul(1812433253, p) + mti) >>> 0;
      }
    }
    var n = BigInt(seed < 0 ? -seed : seed), key = [];
    while (n > 0n) { key.push(Number(n & 0xffffffffn)); n >>= 32n; }
    if (!key.length) { key.push(0); }
    initGenrand(19650218);
    var i = 1, j = 0, k, p;
    for (k = Math.max(624, key.length); k; k--) {
      p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (((mt[i] ^ Math.imul(p, 1664525)) >>> 0) + key[j] + j) >>> 0;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) { j = 0; }
    }
    for (k = 623; k; k--) {
      p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (((mt[i] ^ Math.imul(p, 1566083941)) >>> 0) - i) >>> 0;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
    function next() {
      var y, kk;
      if (mti >= 624) {
        for (kk = 0; kk < 623; kk++) {
          y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
          mt[kk] = mt[(kk + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
        }
        y = (mt[623] & 0x80000000) | (mt[0] & 0x7fffffff);
        mt[623] = mt[396] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
        mti = 0;
      }
      y = mt[mti++];
      y ^= y >>> 11;
      y ^= (y << 7) & 0x9d2c5680;
      y ^= (y << 15) & 0xefc60000;
      y ^= y >>> 18;
      return y >>> 0;
    }
    function bits(count) { return next() >>> (32 - count); }
    return {
      random: function () { var a = next() >>> 5, b = next() >>> 6; return (a * 67108864 + b) / 9007199254740992; },
      below: function (limit) {  // playthrough.py's _below: getrandbits until below
        var count = limit.toString(2).length, r = bits(count);
        while (r >= limit) { r = bits(count); }
        return r;
      }
    };
  }

  // ---- exact test odds: the product of each colour's fraction, as Python's float ---------
  function gcd(a, b) { while (b) { var t = a % b; a = b; b = t; } return a; }
  function chance(story, index, sentience) {
    var test = story.tests[index], num = 1n, den = 1n;
    for (var colour in test.chances) {
      var dice = Math.max(0, sentience[story.colours.indexOf(colour)]);
      var pair = test.chances[colour][dice];
      if (!pair) { throw new Error("more dice than the reader knows: " + dice); }
      num *= BigInt(pair[0]); den *= BigInt(pair[1]);
      if (num === 0n) { break; }
    }
    var g = gcd(num, den) || 1n;
    num /= g; den /= g;
    var limit = 1n << 53n;
    if (num < limit && den < limit) { return Number(num) / Number(den); }
    var shift = BigInt(den.toString(2).length - num.toString(2).length + 64);
    return Number((num << shift) / den) / Math.pow(2, Number(shift));
  }

  function passes(rolled, required) {  // dice.py's colour_passes: a sphere is wild
    var spare = (rolled.sphere || 0) - (required.sphere || 0);
    if (spare < 0) { return false; }
    var missing = 0;
    for (var t in required) {
      if (t !== "sphere") { missing += Math.max(0, required[t] - (rolled[t] || 0)); }
    }
    return missing <= spare;
  }
  function counts(list) {
    var out = {};
    list.forEach(function (x) { out[x] = (out[x] || 0) + 1; });
    return out;
  }

  // ---- the game: playthrough.py's _Game as a generator of questions ----------------------
  function newState(story) {
    return { codas: new Set(), visited: new Set(), order: [], scores: [0, 0, 0, 0], round: 0,
             sentience: story.start.slice(), trapped: false, at: null, current: null,
             trappedAt: null, spawned: [], reading: "setup", asked: false, completed: [],
             openShards: [], openCards: [], ending: null, conclusion: null, outcome: null,
             stuck: 0 };
  }

  function holds(K, tree) {
    var name = tree[0], v = tree[1], results, decisive;
    switch (name) {
      case "const": return v;
      case "coda": return K.codas.has(v);
      case "visited": return K.visited.has(v);
      case "not": results = holds(K, v); return results === null ? null : !results;
      case "all": case "any":
        decisive = name === "any";
        results = v.map(function (t) { return holds(K, t); });
        if (results.indexOf(decisive) >= 0) { return decisive; }
        return results.indexOf(null) >= 0 ? null : !decisive;
      case "score": return v.every(function (p) { return K.scores[p[0]] >= p[1]; });
      case "round_min": return K.round >= v;
      case "round_max": return K.round <= v;
      case "sentience": return v.every(function (p) { return K.sentience[p[0]] >= p[1]; });
      case "trapped": return K.trapped === v;
    }
    return null;
  }

  function* ask(K, question) {
    K.asked = true;
    return yield question;
  }

  function* settle(K, tree, what) {  // a condition about the board: a coin, or the reader
    var value = holds(K, tree);
    if (value !== null) { return value; }
    var answer = yield* ask(K, { type: "coin", what: what, tree: tree });
    return answer.jump !== undefined ? answer : answer.v;
  }

  function visit(K, entry) {
    K.at = entry; K.visited.add(entry); K.order.push(entry); K.reading = entry; K.asked = false;
  }

  function* walk(story, K, node, links) {
    if (node === null || node === undefined) { return "open"; }
    var result = "open", answer, value;
    while (node !== null && node !== undefined) {
      var n = typeof node === "number" ? story.nodes[node] : node;
      var code = n[0], a = n[1], b = n[2], then = n[3];
      if (code === GOTO) {
        if (K.at !== null && !K.asked && K.reading === K.at && node !== n.jumped) {
          answer = yield* ask(K, { type: "pause", next: a });
          if (answer.jump !== undefined) { a = answer.jump; }
        }
        links += 1;
        if (links > story.rules.maxLinks) { K.stuck += 1; result = "stuck"; break; }
        if (!(String(a) in story.entries)) { result = "refused"; break; }
        var gate = story.gates[String(a)];
        if (gate) {
          value = yield* settle(K, gate, "entrance");
          if (value && value.jump !== undefined) { node = [GOTO, value.jump, null, null]; continue; }
          if (!value) { result = "refused"; break; }
        }
        visit(K, a);
        node = story.entries[String(a)];
        continue;
      }
      if (code === EXIT) {
        if (!K.asked) {
          answer = yield* ask(K, { type: "pause", exit: a });
          if (answer.jump !== undefined) { node = [GOTO, answer.jump, null, null]; continue; }
        }
        result = a;
        break;
      }
      if (code === CHOICE || code === CHOOSE_WHEN) {
        var heads = code === CHOICE ? a : [], open = [];
        if (code === CHOICE) {
          a.forEach(function (h, i) { open.push(i); });
        } else {
          a.forEach(function (pair, i) {
            if (pair[0] === null || holds(K, pair[0]) !== false) { open.push(i); }
            heads.push(pair[1]);
          });
          if (!open.length) { node = then; continue; }
        }
        answer = yield* ask(K, { type: "choice", labels: b, open: open });
        if (answer.jump !== undefined) { node = [GOTO, answer.jump, null, null]; continue; }
        node = heads[open[answer.v]];
        continue;
      }
      if (code === TEST) {
        answer = yield* ask(K, { type: "test", test: a, sentience: K.sentience.slice() });
        if (answer.jump !== undefined) { node = [GOTO, answer.jump, null, null]; continue; }
        node = answer.v ? b : then;
        continue;
      }
      if (code === IF) {
        value = yield* settle(K, a, "condition");
        if (value && value.jump !== undefined) { node = [GOTO, value.jump, null, null]; continue; }
        node = value ? b : then;
        continue;
      }
      if (code === MAY) {
        answer = yield* ask(K, { type: "may" });
        if (answer.jump !== undefined) { node = [GOTO, answer.jump, null, null]; continue; }
        node = answer.v ? a : then;
        continue;
      }
      if (code === SCORE) {
        a.forEach(function (p) { K.scores[p[0]] = Math.max(0, K.scores[p[0]] + p[1]); });
      } else if (code === SENTIENCE) {
        a.forEach(function (p) { K.sentience[p[0]] += p[1]; });
      } else if (code === SPAWN) {
        K.spawned.push(a);
      } else if (code === GAIN_CODA) {
        if (!K.codas.has(a)) {
          K.codas.add(a);
          (story.codaSentience[a] || []).forEach(function (p) { K.sentience[p[0]] += p[1]; });
        }
      } else if (code === TRAP) {
        K.trappedAt = K.current; K.trapped = true;
      } else if (code === RELEASE) {
        K.trappedAt = null; K.trapped = false;
      } else if (code === LOSE_CODA) {
        K.codas.delete(a);
      }
      node = then;
    }
    return result;
  }

  function enter(story, K, entry) {  // reading an entry is not following a link
    var start = [GOTO, entry, null, null];
    start.jumped = start;
    return walk(story, K, start, -1);
  }

  function* game(story, K) {
    var R = story.rules;
    K.reading = "setup";
    yield* ask(K, { type: "pause", begin: true });  // the setup's words before play starts
    if ((yield* walk(story, K, story.blocks.setup, 0)) === "fail_stage") { return "stage failed"; }
    K.openShards = story.shards.slice();
    var waiting = story.spawning, round, still, value, i, number, pool, exit;
    for (round = 1; round <= R.rounds; round++) {
      K.round = round;
      if (round <= story.events.length) {
        if ((yield* enter(story, K, story.events[round - 1])) === "fail_stage") { return "stage failed"; }
      }
      if (waiting.length) {
        still = [];
        for (i = 0; i < waiting.length; i++) {
          value = waiting[i][0] === null ? null : holds(K, waiting[i][0]);
          if (value === null) { value = (yield* ask(K, { type: "coin", what: "spawn", entry: waiting[i][1] })).v; }
          if (value) { K.spawned.push(waiting[i][1]); } else { still.push(waiting[i]); }
        }
        waiting = still;
      }
      for (i = 0; i < R.perRound; i++) {
        K.spawned.forEach(function (e) { if (K.openCards.indexOf(e) < 0) { K.openCards.push(e); } });
        K.spawned.length = 0;
        if (K.trappedAt !== null) {
          number = K.trappedAt; pool = null;
        } else {
          var options = K.openShards.concat(K.openCards);
          if (!options.length) { break; }
          var picked = yield* ask(K, { type: "pick", options: options, encounter: i + 1 });
          if (picked.jump !== undefined) { yield* enter(story, K, picked.jump); continue; }
          number = options[picked.v];
          pool = picked.v < K.openShards.length ? K.openShards : K.openCards;
        }
        K.current = number;
        exit = yield* enter(story, K, number);
        if (exit === "fail_stage") { return "stage failed"; }
        if (exit === "end" && pool !== null && K.trappedAt === null) {
          pool.splice(pool.indexOf(number), 1);
          K.completed.push(number);
        }
      }
      if (K.scores.reduce(function (x, y) { return x + y; }, 0) >= R.goal) { break; }
    }
    if (round > R.rounds) { return "stage failed"; }
    var best = Math.max.apply(null, K.scores);
    K.ending = ENDINGS[K.scores.indexOf(best)];  // a tie goes to the earliest ending
    K.conclusion = yield* finale(story, K, K.ending);
    return K.ending;
  }

  function* finale(story, K, letter) {
    var f = story.finales[letter];
    K.trappedAt = null;
    K.reading = letter + ":setup";
    if ((yield* walk(story, K, f[0], 0)) === "conclude") { return K.at; }
    for (var turn = 0; turn < story.rules.finaleRounds; turn++) {
      K.reading = letter + ":event";
      if ((yield* walk(story, K, f[1], 0)) === "conclude") { return K.at; }
      var pool = turn ? f[3] : f[2];
      if (!pool.length) { return null; }
      var picked = yield* ask(K, { type: "pick", options: pool, finale: true });
      var entry = picked.jump !== undefined ? picked.jump : pool[picked.v];
      if ((yield* enter(story, K, entry)) === "conclude") { return K.at; }
    }
    return null;
  }

  // Replays `answers`, then asks `decide` (which may return undefined: wait for a person).
  function run(story, answers, decide) {
    var K = newState(story), steps = game(story, K), step = steps.next(), used = 0;
    while (!step.done) {
      var answer = used < answers.length ? answers[used] : decide(step.value, K);
      if (answer === undefined) { return { state: K, question: step.value, used: used }; }
      if (used >= answers.length) { answers.push(answer); }
      used += 1;
      step = steps.next(answer);
    }
    K.outcome = step.value;
    return { state: K, question: null, used: used };
  }

  function commandLine(story, rng) {  // the choices playthrough.py makes, in its order
    return function (q, K) {
      switch (q.type) {
        case "pause": return { v: null };
        case "choice": return { v: Math.floor(rng.random() * q.open.length) };
        case "test": return { v: rng.random() < chance(story, q.test, K.sentience) };
        case "pick": return { v: rng.below(q.options.length) };
        default: return { v: rng.random() < 0.5 };  // may, coin
      }
    };
  }

  function autoplay(story, seed, runs) {
    var rng = PyRandom(seed), paths = [];
    for (var r = 0; r < runs; r++) {
      var answers = [], K = run(story, answers, commandLine(story, rng)).state;
      paths.push({ entries: K.order, scores: K.scores, outcome: K.outcome,
                   conclusion: K.outcome === "stage failed" ? null : K.conclusion,
                   answers: answers });
    }
    return paths;
  }

  var api = { PyRandom: PyRandom, run: run, autoplay: autoplay, chance: chance,
              passes: passes, counts: counts };
  window.dmtoolReaderCore = api;
})();
