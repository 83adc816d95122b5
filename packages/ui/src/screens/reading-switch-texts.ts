/**
 * The words of the switches of reading documents on the device (docs/behaviour.md#reading-documents),
 * on Account and Settings. Apart from texts.ts, which the app's first download carries: only those two
 * screens need them.
 */
export const readingSwitchTexts = {
  /** Account's section and its checkbox: the person's own switch. */
  title: 'Checking documents',
  mine: 'Check documents on this device',
  /** Under Account's checkbox, disabled, while the programme's switch is off. */
  programmeOff: 'Your programme turned checking documents off.',
  /** Settings' checkbox and its hint: the programme's switch. */
  programme: 'Check documents on the device',
  programmeHint:
    'Staff devices and the client page read each document as it is added, to point out a form in the wrong category, last year’s form or an expired ID; nothing they read leaves the device.',
} as const;
