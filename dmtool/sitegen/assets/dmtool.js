// The large storybook map gets pan and zoom (vendored svg-pan-zoom); small pictures are
// scaled to the page's width (the stylesheet). The large map opens at a zoom where its
// words are readable (LEGIBLE screen pixels per drawing point: 10-point labels at 12 px,
// 8-point arrow labels near 10 px) at its top left, where the story starts; with
// #map-entry-N in the address it opens centred on entry N, which is outlined.
(function () {
  "use strict";
  var LEGIBLE = 1.2;
  function node(svg, entry) {
    var titles = svg.querySelectorAll("g.node > title");
    for (var i = 0; i < titles.length; i++) {
      if (titles[i].textContent === "e" + entry) { return titles[i].parentNode; }
    }
    return null;
  }
  function start() {
    if (typeof svgPanZoom !== "function") {
      return;
    }
    var pictures = document.querySelectorAll(".dmtool-graph.pan-zoom svg");
    Array.prototype.forEach.call(pictures, function (svg) {
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      var zoom = svgPanZoom(svg, {
        controlIconsEnabled: true,
        zoomScaleSensitivity: 0.3,
        minZoom: 0.05,
        maxZoom: 30,
        fit: true,
        center: true,
        preventMouseEventsDefault: false
      });
      var sizes = zoom.getSizes();
      zoom.zoom(zoom.getZoom() * LEGIBLE / sizes.realZoom);
      zoom.pan({ x: 0, y: 0 });
      var wanted = /^#map-entry-(\d+)$/.exec(window.location.hash);
      var target = wanted ? node(svg, wanted[1]) : null;
      if (target) {
        target.classList.add("dmtool-here");
        // In the drawing's own units (svg-pan-zoom redraws on the next frame, so what the
        // screen shows now is stale): the node's centre, then the pan that centres it.
        var viewport = svg.querySelector(".svg-pan-zoom_viewport"), box = target.getBBox();
        var point = svg.createSVGPoint();
        point.x = box.x + box.width / 2;
        point.y = box.y + box.height / 2;
        point = point.matrixTransform(viewport.getCTM().inverse().multiply(target.getCTM()));
        var now = zoom.getSizes();
        zoom.pan({ x: now.width / 2 - point.x * now.realZoom,
                   y: now.height / 2 - point.y * now.realZoom });
        svg.parentNode.scrollIntoView();
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
