/** The tool and rule name of a learned label and its evidence (kept apart from the model, so showing a label does not load it). */
export const LEARNED_TOOL = 'learned-fallback';
