/**
 * A page's refusal: the status and a message for the person (naming the field where a form input
 * was at fault). The web scope's error handler renders it as a page; nothing is changed.
 */
export class PageRefusal extends Error {
  readonly status: number;
  readonly title: string;

  constructor(status: number, title: string, message: string) {
    super(message);
    this.name = 'PageRefusal';
    this.status = status;
    this.title = title;
  }
}

export function pageNotFound(): PageRefusal {
  return new PageRefusal(404, 'Not found', 'There is nothing here, or it is not yours to see.');
}

export function ownersOnly(): PageRefusal {
  return new PageRefusal(403, 'Owners only', 'Only an owner of the account can change keys, limits and routing. Members can see them.');
}

/** A form input at fault: 400 with the field's label leading the message. */
export function fieldRefusal(field: string, problem: string): PageRefusal {
  return new PageRefusal(400, 'Check the form', `${field}: ${problem}`);
}
