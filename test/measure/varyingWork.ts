// The calibration plugin of a component whose own requests vary in CPU instructions (test/measure/instructions-varying.test.ts):
// written by the test, modelled on a plugin that throttles a task with a counter in an option. Every request of the
// front end increments the counter, and every other one does extra work (the counted loop of countedWork.ts); the
// admin's requests do the same work every time. Its counts then vary by millions of instructions from one front-end
// request to the next, whatever the clock says (libfaketime sets it, so time() alone would not do it).
/** The plugin: `n` iterations of the loop on every other front-end request. */
export function varyingWorkPlugin(n = 100_000): string {
  return `<?php
/**
 * Plugin Name: Varying work
 * Version: 1.0
 */
add_action('init', function () {
  if (is_admin()) return;
  $k = (int) get_option('varying_work_requests', 0) + 1;
  update_option('varying_work_requests', $k, false);
  if ($k % 2) {
    $s = 0;
    for ($i = 0; $i < ${n}; $i++) { $s += $i % 7; }
    $GLOBALS['varying_work'] = $s;
  }
});
`;
}
