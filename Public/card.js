// Steppers for the card page: without this file the page has plain number inputs.
(function () {
  "use strict";
  document.querySelectorAll(".card-player .stepper").forEach(function (stepper) {
    var input = stepper.querySelector("input");
    if (input.readOnly) return;
    stepper.querySelectorAll("button.step").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var value = parseInt(input.value, 10) || 0;
        var next = Math.min(99, Math.max(1, value + parseInt(button.getAttribute("data-step"), 10)));
        input.value = String(next);
      });
    });
  });
})();
