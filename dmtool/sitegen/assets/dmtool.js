// The large storybook map gets pan and zoom (vendored svg-pan-zoom); small pictures stay as
// they are. Links inside the pictures are ordinary SVG links to entry anchors.
(function () {
  "use strict";
  function start() {
    if (typeof svgPanZoom !== "function") {
      return;
    }
    var pictures = document.querySelectorAll(".dmtool-graph.pan-zoom svg");
    Array.prototype.forEach.call(pictures, function (svg) {
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      svgPanZoom(svg, {
        controlIconsEnabled: true,
        zoomScaleSensitivity: 0.3,
        minZoom: 0.5,
        maxZoom: 30,
        fit: true,
        center: true,
        preventMouseEventsDefault: false
      });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
