// The second half of the calibration set: the other eight text pages' copies and the small photos.
import { it } from 'vitest';
import { checkCalibration } from '../../test/calibration-check.js';

it(
  'the warnings meet their goals on the second half of the calibration set (confusion matrix printed)',
  () => checkCalibration('second', ['dark', 'washedOut', 'blurry', 'small']),
  120_000,
);
