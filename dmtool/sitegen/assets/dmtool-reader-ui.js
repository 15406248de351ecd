// The storybook reader's page: what a person sees and presses. The game itself is
// dmtool-reader.js; this draws its state and turns presses into answers. Every string from
// the content is set as text; only the entry words, rendered and sanitised by dmtool when
// the site was built, are set as HTML.
(function () {
  "use strict";
  var core = window.dmtoolReaderCore;
  var TYPES = ["hand", "eye", "brain", "skull", "sphere"];

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function button(label, onClick, cls) {
    var b = el("button", "md-button" + (cls ? " " + cls : ""), label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function Reader(root, story) {
    this.root = root;
    this.story = story;
    this.key = "dmtool-reader:" + story.id;
    this.answers = this.load();
    this.rolled = null;
    this.draw();
  }

  Reader.prototype.load = function () {
    try {
      var saved = JSON.parse(window.localStorage.getItem(this.key) || "[]");
      return Array.isArray(saved) ? saved : [];
    } catch (e) { return []; }
  };
  Reader.prototype.save = function () {
    try { window.localStorage.setItem(this.key, JSON.stringify(this.answers)); } catch (e) { /* private mode */ }
  };
  Reader.prototype.answer = function (value) {
    this.answers.push(value);
    this.rolled = null;
    this.save();
    this.draw();
  };
  Reader.prototype.back = function () {
    // One question back; answers given for the reader (a single way on) go with it.
    this.answers.pop();
    while (this.answers.length && this.answers[this.answers.length - 1].auto) { this.answers.pop(); }
    this.rolled = null;
    this.save();
    this.draw();
  };

  Reader.prototype.draw = function () {
    var story = this.story, self = this;
    var played = core.run(story, this.answers, function (q) {
      // Questions with one possible answer are answered for the reader.
      if (q.type === "pick" && q.options.length === 1) { return { v: 0, auto: true }; }
      return undefined;
    });
    this.answers.length = played.used;
    var K = played.state, q = played.question;
    this.root.textContent = "";
    this.root.appendChild(this.status(K));
    var page = el("div", "dmr-page");
    page.appendChild(this.reading(K, q));
    var asks = el("div", "dmr-ask");
    asks.setAttribute("aria-live", "polite");
    if (q) { this.question(asks, q, K); } else { this.ending(asks, K); }
    page.appendChild(asks);
    this.root.appendChild(page);
    this.root.appendChild(this.tools(K));
    this.root.setAttribute("data-state", q ? q.type : "ended");
    this.root.setAttribute("data-entry", K.at === null ? "" : String(K.at));
    this.root.setAttribute("data-scores", K.scores.join(","));
    var first = asks.querySelector("button");
    if (first && self.focused) { first.focus(); }
    self.focused = true;
  };

  Reader.prototype.status = function (K) {
    var story = this.story, bar = el("div", "dmr-status");
    var round = K.round ? "Round " + K.round + " of " + story.rules.rounds : "Setup";
    bar.appendChild(el("span", "dmr-round", K.ending ? "Finale of ending " + K.ending : round));
    bar.appendChild(el("span", "dmr-scores", "Scores: " + ["A", "B", "C", "D"].map(function (e, i) {
      return e + " " + K.scores[i];
    }).join(", ") + " (the stage is won at " + story.rules.goal + " together)"));
    bar.appendChild(el("span", "dmr-sentience", "Sentience: " + story.colours.map(function (c, i) {
      return c + " " + K.sentience[i];
    }).join(", ")));
    bar.appendChild(el("span", "dmr-codas", "Codas: " + (K.codas.size ? Array.from(K.codas).map(function (c) {
      return (story.codaNames || {})[c] || c;
    }).join(", ") : "none")));
    bar.appendChild(el("span", "dmr-visited", "Entries read: " + K.visited.size));
    bar.appendChild(el("span", "dmr-completed", "Completed tokens: " + (K.completed.length
      ? K.completed.map(function (n) { return story.sources[n] || "entry " + n; }).join("; ") : "none")));
    return bar;
  };

  Reader.prototype.reading = function (K, q) {
    var story = this.story, box = el("article", "dmr-entry");
    if (typeof K.reading === "number") {
      var text = story.texts[K.reading] || { title: "", html: "" };
      box.appendChild(el("h2", "dmr-title", K.reading + " · " + text.title));
      var words = el("div", "dmr-words");
      words.innerHTML = text.html;  // rendered and sanitised by dmtool (sitegen/reader.py)
      box.appendChild(words);
    } else {
      var name = K.reading === "setup" ? "Setup" : "Ending " + K.reading.replace(":setup", ": setup").replace(":event", ": event phase");
      box.appendChild(el("h2", "dmr-title", name));
      var block = el("div", "dmr-words");
      block.innerHTML = story.blockTexts[K.reading] || "";
      box.appendChild(block);
    }
    return box;
  };

  Reader.prototype.question = function (box, q, K) {
    var story = this.story, self = this;
    if (q.type === "pause") {
      box.appendChild(button(q.begin ? "Begin the story" : q.next !== undefined ? "Go to entry " + q.next : "Continue",
        function () { self.answer({ v: null }); }, "md-button--primary"));
    } else if (q.type === "choice") {
      box.appendChild(el("p", "dmr-prompt", "Choose:"));
      q.open.forEach(function (index, i) {
        box.appendChild(button(q.labels[index], function () { self.answer({ v: i }); }, "dmr-option"));
      });
    } else if (q.type === "may") {
      box.appendChild(el("p", "dmr-prompt", "You may do this. Do you?"));
      box.appendChild(button("Yes", function () { self.answer({ v: true }); }));
      box.appendChild(button("No", function () { self.answer({ v: false }); }));
    } else if (q.type === "coin") {
      var about = q.what === "spawn" ? "Does the card of entry " + q.entry + " spawn now?" :
        q.what === "entrance" ? "Does this entry's entrance condition hold on your board?" :
        "Does this condition hold on your board?";
      box.appendChild(el("p", "dmr-prompt", about));
      box.appendChild(button("Yes", function () { self.answer({ v: true }); }));
      box.appendChild(button("No", function () { self.answer({ v: false }); }));
    } else if (q.type === "pick") {
      box.appendChild(el("p", "dmr-prompt", q.finale ? "The finale: which encounter do you resolve?"
        : "Encounter " + q.encounter + " of " + story.rules.perRound + " this round: where do you go?"));
      q.options.forEach(function (entry, i) {
        box.appendChild(button(story.sources[entry] || "Entry " + entry,
          function () { self.answer({ v: i }); }, "dmr-option"));
      });
    } else if (q.type === "test") {
      this.test(box, q, K);
    }
  };

  Reader.prototype.test = function (box, q, K) {
    var story = this.story, self = this, test = story.tests[q.test];
    var need = Object.keys(test.roll).map(function (c) { return c + " " + test.roll[c].join(" and "); });
    var odds = null;
    try { odds = core.chance(story, q.test, q.sentience); } catch (e) { odds = null; }  // > 20 dice
    box.appendChild(el("p", "dmr-prompt", "Test: roll for " + need.join("; ") + "."
      + (odds === null ? "" : " Pass chance " + (odds * 100).toFixed(1) + "%.")));
    var dice = el("div", "dmr-dice");
    var inputs = {};
    Object.keys(test.roll).forEach(function (c) {
      var count = Math.max(0, q.sentience[story.colours.indexOf(c)]);
      var row = el("label", "dmr-die-row", c + " (" + count + " dice): ");
      var input = el("input", "dmr-faces");
      input.type = "text";
      input.setAttribute("data-colour", c);
      input.placeholder = "faces, e.g. " + story.faces[c].slice(0, Math.max(1, count)).join(" ");
      if (self.rolled) { input.value = self.rolled[c].join(" "); }
      inputs[c] = input;
      row.appendChild(input);
      dice.appendChild(row);
    });
    box.appendChild(dice);
    var message = el("p", "dmr-verdict");
    box.appendChild(button("Roll the dice on screen", function () {
      self.rolled = {};
      Object.keys(test.roll).forEach(function (c) {
        var count = Math.max(0, q.sentience[story.colours.indexOf(c)]), faces = [];
        for (var i = 0; i < count; i++) {
          var pick = new Uint32Array(1);
          window.crypto.getRandomValues(pick);
          faces.push(story.faces[c][pick[0] % 6]);
        }
        self.rolled[c] = faces;
        inputs[c].value = faces.join(" ");
      });
      message.textContent = verdict();
    }, "dmr-roll"));
    box.appendChild(button("Resolve with these faces", function () {
      var result = judge();
      if (result === null) { message.textContent = "Enter each colour's faces: " + TYPES.join(", ") + "."; return; }
      self.answer({ v: result, faces: read() });
    }, "md-button--primary dmr-resolve"));
    box.appendChild(message);
    function read() {
      var out = {};
      Object.keys(inputs).forEach(function (c) {
        out[c] = inputs[c].value.toLowerCase().split(/[\s,]+/).filter(Boolean);
      });
      return out;
    }
    function judge() {
      var faces = read(), ok = true;
      for (var c in faces) {
        var count = Math.max(0, q.sentience[story.colours.indexOf(c)]);
        if (faces[c].length !== count || faces[c].some(function (f) { return TYPES.indexOf(f) < 0; })) { return null; }
        if (!core.passes(core.counts(faces[c]), core.counts(test.roll[c]))) { ok = false; }
      }
      return ok;
    }
    function verdict() {
      var result = judge();
      return result === null ? "" : result ? "These faces pass." : "These faces fail.";
    }
  };

  Reader.prototype.ending = function (box, K) {
    var story = this.story;
    if (K.outcome === "stage failed") {
      box.appendChild(el("p", "dmr-end", "The wanderer stage is lost: the story ends here."));
    } else {
      var title = story.endingTitles[K.ending] || "";
      box.appendChild(el("p", "dmr-end", "The end: ending " + K.ending + (title ? ", " + title : "")
        + (K.conclusion !== null ? ", with conclusion " + K.conclusion + "." : ".")));
    }
  };

  Reader.prototype.tools = function (K) {
    var self = this, story = this.story, bar = el("div", "dmr-tools");
    var back = button("Back", function () { self.back(); });
    back.disabled = !this.answers.length;
    bar.appendChild(back);
    bar.appendChild(button("Start again", function () { self.answers = []; self.save(); self.draw(); }));
    var jump = el("form", "dmr-jump");
    var number = el("input");
    number.type = "number";
    number.setAttribute("aria-label", "Entry number");
    jump.appendChild(el("span", "", "Jump to entry "));
    jump.appendChild(number);
    jump.appendChild(button("Go", function () {}, "dmr-go"));
    jump.querySelector("button").type = "submit";
    jump.addEventListener("submit", function (event) {
      event.preventDefault();
      var n = parseInt(number.value, 10);
      if (String(n) in story.entries) { self.answer({ jump: n }); }
    });
    bar.appendChild(jump);
    if (story.map && typeof K.reading === "number") {
      var map = el("a", "dmr-map", "Show entry " + K.reading + " on the map");
      map.href = story.map + "#map-entry-" + K.reading;
      bar.appendChild(map);
    }
    var history = el("details", "dmr-history");
    history.appendChild(el("summary", "", "History (" + K.order.length + " entries read)"));
    var list = el("ol");
    K.order.forEach(function (n) { list.appendChild(el("li", "", n + " · " + ((story.texts[n] || {}).title || ""))); });
    history.appendChild(list);
    bar.appendChild(history);
    return bar;
  };

  function start() {
    var root = document.querySelector("[data-dmtool-reader]");
    if (!root || !core) { return; }
    var story = JSON.parse(root.getAttribute("data-story-json"));
    window.dmtoolReader = {
      story: story,
      reader: new Reader(root, story),
      autoplay: function (seed, runs) { return core.autoplay(story, seed, runs); }
    };
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
