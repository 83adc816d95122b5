/**
 * `Adjust corners` and the queue's straightened thumbnail: loaded the first time a converted photo
 * is queued (through `corner-parts.ts`), with the converter they lean on, so no route's first
 * download carries them.
 */
import { CLIENT_CAPTURE_TEXTS } from '@vita-docs/core';
import type { ClientLinkLanguage } from '@vita-docs/core';
import type { FileLike, PageCrop, Point, QuarterTurn, Quad } from '@vita-docs/core';
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { Modal } from '../../components/modal';
import { foundOutline, pagePreview } from './browser-converter';
import { PhotoThumb } from './photo-thumb';
import { CORNER_TEXTS } from './corner-texts';

/** The corners of the whole photo, in shares of its sides. */
const WHOLE: Quad = [
  { x: 0, y: 0 },
  { x: 1, y: 0 },
  { x: 1, y: 1 },
  { x: 0, y: 1 },
];
/** How far an arrow key moves a handle (a share of the photo's side); with Shift, five times as far. */
const STEP = 0.01;

const clamp = (value: number) => Math.min(1, Math.max(0, value));

interface AdjustCornersProps {
  /** The photo as chosen. */
  file: FileLike;
  /** The row's file name, for the button's accessible name. */
  name: string;
  /** The part the person chose before; absent: the converter's own. */
  crop: PageCrop | undefined;
  disabled: boolean;
  language?: ClientLinkLanguage;
  onSave: (crop: PageCrop) => void;
}

/** The `Adjust corners` button of a converted photo's row, and the editor it opens. */
export function AdjustCorners({ file, name, crop, disabled, language = 'en', onSave }: AdjustCornersProps) {
  const [open, setOpen] = useState(false);
  const words = CLIENT_CAPTURE_TEXTS[language];
  return (
    <>
      <button
        type="button"
        className="button button--small"
        aria-label={`${words.adjustCorners} ${name}`}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {words.adjustCorners}
      </button>
      {open && (
        <CornerEditor
          file={file}
          crop={crop}
          language={language}
          onClose={() => setOpen(false)}
          onSave={(chosen) => {
            setOpen(false);
            onSave(chosen);
          }}
        />
      )}
    </>
  );
}

interface CornerEditorProps {
  file: FileLike;
  crop: PageCrop | undefined;
  language: ClientLinkLanguage;
  onClose: () => void;
  onSave: (crop: PageCrop) => void;
}

/** The photo upright to show, the outline found, and the corners as chosen so far. */
function useCorners(file: FileLike, crop: PageCrop | undefined) {
  const [photo, setPhoto] = useState<string | null>(null);
  const [found, setFound] = useState<Quad | null>(null);
  const [corners, setCorners] = useState<Quad | null>(null);
  const [whole, setWhole] = useState(false);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    void Promise.all([
      pagePreview(file, { crop: { mode: 'whole' }, maxSide: 1200 }),
      foundOutline(file),
    ]).then(([preview, outline]) => {
      if (!live) return;
      url = URL.createObjectURL(preview.jpeg);
      setPhoto(url);
      setFound(outline.corners);
      const start = crop?.mode === 'corners' ? crop.corners : crop ? null : outline.corners;
      setCorners(start ?? WHOLE);
      setWhole(start === null);
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [file, crop]);
  /** Puts the corners at `to`; `asWhole`: the whole photo, as it was before straightening. */
  const place = (to: Quad, asWhole: boolean) => {
    setCorners(to);
    setWhole(asWhole);
  };
  const move = (index: number, to: (point: Point) => Point) => {
    setWhole(false);
    setCorners((current) => {
      if (!current) return current;
      const next = current.map((point, i) => {
        if (i !== index) return point;
        const moved = to(point);
        return { x: clamp(moved.x), y: clamp(moved.y) };
      });
      return next as unknown as Quad;
    });
  };
  return { photo, found, corners, whole, place, move };
}

/** Where an arrow key moves a handle; null for any other key. */
function arrowStep(event: KeyboardEvent): Point | null {
  const step = event.shiftKey ? STEP * 5 : STEP;
  const steps: Record<string, Point> = {
    ArrowLeft: { x: -step, y: 0 },
    ArrowRight: { x: step, y: 0 },
    ArrowUp: { x: 0, y: -step },
    ArrowDown: { x: 0, y: step },
  };
  return steps[event.key] ?? null;
}

/**
 * The photo upright with the page's outline and a handle at each corner, moved by dragging or, once
 * focused, by the arrow keys; `Reset` puts back the outline found, `Use whole photo` the photo's own
 * corners, `Save` converts the row again from what is shown.
 */
function CornerEditor({ file, crop, language, onClose, onSave }: CornerEditorProps) {
  const words = CLIENT_CAPTURE_TEXTS[language];
  const names = CORNER_TEXTS[language];
  const { photo, found, corners, whole, place, move } = useCorners(file, crop);
  const actions = (
    <>
      <button
        type="button"
        className="button"
        disabled={!corners}
        onClick={() => place(found ?? WHOLE, found === null)}
      >
        {words.cornersReset}
      </button>
      <button type="button" className="button" disabled={!corners} onClick={() => place(WHOLE, true)}>
        {words.cornersWholePhoto}
      </button>
      <button type="button" className="button" onClick={onClose}>
        {words.cancel}
      </button>
      <button
        type="button"
        className="button button--primary"
        disabled={!corners}
        onClick={() => corners && onSave(whole ? { mode: 'whole' } : { mode: 'corners', corners })}
      >
        {words.cornersSave}
      </button>
    </>
  );
  return (
    <Modal title={words.adjustCorners} className="modal--corners" onClose={onClose} actions={actions}>
      {photo && corners ? (
        <CornerHandles photo={photo} corners={corners} names={names} move={move} />
      ) : (
        <p className="hint">{names.loading}</p>
      )}
    </Modal>
  );
}

interface CornerHandlesProps {
  photo: string;
  corners: Quad;
  names: (typeof CORNER_TEXTS)[ClientLinkLanguage];
  move: (index: number, to: (point: Point) => Point) => void;
}

/** The photo, the outline over it and the four handles. */
function CornerHandles({ photo, corners, names, move }: CornerHandlesProps) {
  const box = useRef<HTMLDivElement>(null);
  const dragging = useRef<number | null>(null);
  const pointerAt = (event: PointerEvent) => {
    const rect = box.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return null;
    return { x: (event.clientX - rect.left) / rect.width, y: (event.clientY - rect.top) / rect.height };
  };
  return (
    <div className="corners" ref={box}>
      <img className="corners__photo" src={photo} alt={names.photo} draggable={false} />
      <svg className="corners__outline" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
        <polygon points={corners.map((p) => `${p.x * 100},${p.y * 100}`).join(' ')} />
      </svg>
      {corners.map((point, index) => (
        <button
          key={names.corners[index]}
          type="button"
          className="corners__handle"
          aria-label={names.corners[index]}
          style={{ left: `${point.x * 100}%`, top: `${point.y * 100}%` }}
          onKeyDown={(event) => {
            const by = arrowStep(event);
            if (!by) return;
            event.preventDefault();
            move(index, (at) => ({ x: at.x + by.x, y: at.y + by.y }));
          }}
          onPointerDown={(event) => {
            event.currentTarget.setPointerCapture(event.pointerId);
            dragging.current = index;
          }}
          onPointerMove={(event) => {
            if (dragging.current !== index) return;
            const at = pointerAt(event);
            if (at) move(index, () => at);
          }}
          onPointerUp={() => {
            dragging.current = null;
          }}
        />
      ))}
    </div>
  );
}

interface StraightThumbProps {
  /** The photo as chosen. */
  file: FileLike;
  rotate: QuarterTurn;
  crop: PageCrop | undefined;
  /** The row's current PDF: a new one (converted again) draws the thumbnail again. */
  version: FileLike;
  label: string;
}

/** The queue's thumbnail of a converted photo: its page as the PDF shows it, the photo until then. */
export function StraightThumb({ file, rotate, crop, version, label }: StraightThumbProps) {
  const [page, setPage] = useState<{ of: FileLike; jpeg: FileLike } | null>(null);
  useEffect(() => {
    // Until the photo has become its PDF, the outline is not known: the photo itself shows.
    if (version === file) return;
    let live = true;
    pagePreview(file, { rotate, ...(crop ? { crop } : {}), maxSide: 240 }).then(
      ({ jpeg }) => {
        if (live) setPage({ of: version, jpeg: new File([jpeg], 'page.jpg', { type: 'image/jpeg' }) });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [file, rotate, crop, version]);
  if (page) return <PhotoThumb file={page.jpeg} label={label} />;
  return <PhotoThumb file={file} rotate={rotate} label={label} />;
}
