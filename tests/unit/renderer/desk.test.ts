// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { announced, buttonNamed, DESK_PIN_SIGN_IN, fail, inputLabelled, mountApp, ok, partnerInfo, PATRON, sandboxInfo, serviceFail } from './fake-desk.ts';

async function scan(card: string): Promise<void> {
  const input = inputLabelled('Library card') as HTMLInputElement;
  input.value = card;
  input.dispatchEvent(new Event('input'));
  input.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}

const shortDate = (ms: number) => new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', ...(new Date(ms).getFullYear() === new Date().getFullYear() ? {} : { year: 'numeric' }) }).format(ms);
const dueDate = shortDate(PATRON.loans[0]!.dueAt!);
const reserveDate = shortDate(PATRON.holds[1]!.reserveUntil!);

describe('shift start', () => {
  it('with the shared desk PIN, asks for the PIN alone, focused: no name anyone could type (issue #35)', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo(false));
    expect(wrapper.get('h1').text()).toBe('Start your shift');
    expect(document.querySelectorAll('input[type="text"]')).toHaveLength(0);
    const pin = inputLabelled('PIN') as HTMLInputElement;
    expect(document.activeElement).toBe(pin);
    expect(wrapper.text()).toContain('The action log records “desk PIN” as the staff.');
    pin.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
    expect(announced('alert')).toEqual(['Enter the PIN.']);
    pin.value = '246813';
    pin.dispatchEvent(new Event('input'));
    pin.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
    expect(desk.startShift).toHaveBeenCalledWith({ pin: '246813' });
    expect(document.activeElement).toBe(inputLabelled('Library card'));
  });

  it('with the desk PIN and IT\'s list of names, offers the names to choose from, or none', async () => {
    const info = { ...sandboxInfo(false), signIn: { ...DESK_PIN_SIGN_IN, deskPinNames: ['Ana Lopez', 'Jo Park'] } };
    const { desk } = await mountApp(info);
    const name = inputLabelled('Your name (if it is listed)') as HTMLSelectElement;
    expect([...name.options].map((o) => o.text)).toEqual(['No name: the log says “desk PIN”', 'Ana Lopez', 'Jo Park']);
    expect(document.activeElement).toBe(name);
    name.value = 'Jo Park';
    name.dispatchEvent(new Event('change'));
    const pin = inputLabelled('PIN') as HTMLInputElement;
    pin.value = '246813';
    pin.dispatchEvent(new Event('input'));
    pin.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
    expect(desk.startShift).toHaveBeenCalledWith({ staffName: 'Jo Park', pin: '246813' });
  });

  it('with per-staff PINs, asks for a name, focused, and the PIN; Enter starts the shift', async () => {
    const { wrapper, desk } = await mountApp({ ...sandboxInfo(false), signIn: { ...DESK_PIN_SIGN_IN, method: 'staff-pins', deskPinNeeds: 'policy' } });
    expect(wrapper.get('h1').text()).toBe('Start your shift');
    expect(wrapper.text()).toContain('SANDBOX — training data, no real patrons');
    const name = inputLabelled('Enter your name or initials to start') as HTMLInputElement;
    expect(document.activeElement).toBe(name);
    name.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
    expect(announced('alert')).toEqual(['Enter your name or initials.']);
    expect(desk.startShift).not.toHaveBeenCalled();
    name.value = '  JD ';
    name.dispatchEvent(new Event('input'));
    name.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
    expect(announced('alert')).toEqual(['Enter the PIN.']);
    expect(document.activeElement).toBe(inputLabelled('PIN'));
    const pin = inputLabelled('PIN') as HTMLInputElement;
    pin.value = '246813';
    pin.dispatchEvent(new Event('input'));
    name.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
    expect(desk.startShift).toHaveBeenCalledWith({ staffName: 'JD', pin: '246813' });
    expect(wrapper.text()).toContain('On shift: JD');
    expect(document.activeElement).toBe(inputLabelled('Library card'));
  });
});

describe('desk', () => {
  it('shows the header: app, profile, libraries, staff, Lock and Settings; the card field has focus', async () => {
    const { wrapper } = await mountApp(sandboxInfo());
    expect(wrapper.find('header h1').text()).toBe('Lending Desk');
    expect(wrapper.find('header').text()).toContain('Built-in sandbox');
    const library = inputLabelled('Library') as HTMLSelectElement;
    expect([...library.options].map((o) => o.text.trim())).toEqual(['Library 101', 'Library 202']);
    expect(wrapper.text()).toContain('On shift: JD');
    buttonNamed(wrapper, 'Lock');
    buttonNamed(wrapper, 'Settings');
    expect(document.activeElement).toBe(inputLabelled('Library card'));
    expect(wrapper.text()).toContain('SANDBOX — training data, no real patrons');
  });

  it('looks a card up as scanned (trimmed, leading zeros kept) and shows only what is present', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await scan('  0012345 ');
    expect(desk.lookupPatron).toHaveBeenCalledWith({ libraryId: 101, card: '0012345' });
    const text = wrapper.text();
    expect(text).toContain('Card ••••2345');
    expect(text).not.toContain('0012345 ');
    expect(text).toContain('3 of 5 borrows left this month');
    // The patron strip (issue #35): whose account, the counts, a ready hold's deadline.
    expect(text).toContain('2 loans · 2 holds, 1 ready until');
    expect(text).toContain('The River Road');
    expect(text).toContain('eBook');
    expect(text).toContain(`Due ${dueDate}`);
    expect(text).toContain('Title 12');
    expect(text).toContain('Night Garden');
    expect(text).toContain('Waiting');
    expect(text).toContain('Position 4 in the queue');
    expect(text).toContain('Ready');
    expect(text).toContain(`until ${reserveDate}`);
    expect(text).toContain('Borrow now');
    for (const junk of ['undefined', 'NaN', '1970', 'null']) expect(text).not.toContain(junk);
    expect(announced('status')).toContain('Patron loaded.');
    expect(document.querySelectorAll('[role="alert"]')).toHaveLength(0); // alerts exist only with something to say
    expect(document.activeElement).toBe(inputLabelled('Library card'));
  });

  it('leaves out allowance lines the service did not send', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(ok({ ...PATRON, status: {}, loans: [{ contentId: 5, dueAt: 0 }], holds: [] }));
    await scan('A1');
    const text = wrapper.text();
    expect(text).toContain('Card ••••'); // a card this short is not shown at all
    expect(text).not.toContain('A1');
    expect(text).not.toContain('borrows left');
    expect(text).not.toContain('Currently borrowed');
    expect(text).not.toContain('Due');
    expect(text).toContain('No holds.');
  });

  it('clears the patron with the button or Esc and puts focus back in the card field', async () => {
    const { wrapper } = await mountApp(sandboxInfo());
    await scan('0012345');
    await buttonNamed(wrapper, 'Clear patron').trigger('click');
    expect(wrapper.text()).not.toContain('The River Road');
    expect((inputLabelled('Library card') as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(inputLabelled('Library card'));

    await scan('0012345');
    (document.activeElement as HTMLElement).blur();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await flushPromises();
    expect(wrapper.text()).not.toContain('The River Road');
    expect(document.activeElement).toBe(inputLabelled('Library card'));
  });

  it("says the card is unknown to this library, with the service's message, keeping the card typed", async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(serviceFail('invalid-patron', 'No account with the service for this card.'));
    await scan('99999');
    // What to say (the issue: plain sentences staff can read out), with the service's words as detail.
    const alerts = announced('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain('This card is not known to Library 101.');
    expect(alerts[0]).toContain('Service message: “No account with the service for this card.”');
    expect((inputLabelled('Library card') as HTMLInputElement).value).toBe('99999');
    expect(wrapper.text()).not.toContain('Card ••••');
  });

  it('does not send an empty card', async () => {
    const { desk } = await mountApp(sandboxInfo());
    await scan('   ');
    expect(desk.lookupPatron).not.toHaveBeenCalled();
    expect(announced('alert')).toEqual(['Enter a library card number.']);
  });

  it('lists the demo cards of the selected library; switching library clears the patron', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    expect(wrapper.get('aside').text()).toContain('Demo cards');
    expect(wrapper.get('aside').text()).toContain('0098765');
    await scan('0012345');
    const library = inputLabelled('Library') as HTMLSelectElement;
    library.value = '202';
    library.dispatchEvent(new Event('change'));
    await flushPromises();
    expect(wrapper.text()).not.toContain('The River Road');
    expect(wrapper.get('aside').text()).toContain('CA-5555');
    expect(wrapper.get('aside').text()).not.toContain('0098765');
    await buttonNamed(wrapper, 'CA-5555').trigger('click');
    await flushPromises();
    expect(desk.lookupPatron).toHaveBeenLastCalledWith({ libraryId: 202, card: 'CA-5555' });
  });

  it('shows a partner profile without the sandbox banner or demo cards', async () => {
    const { wrapper, desk } = await mountApp(partnerInfo());
    expect(wrapper.text()).not.toContain('SANDBOX');
    expect(wrapper.find('aside').exists()).toBe(false);
    const library = inputLabelled('Library') as HTMLSelectElement;
    expect([...library.options].map((o) => o.text.trim())).toEqual(['Central', 'Library 8']);
    await scan('1234');
    expect(desk.lookupPatron).toHaveBeenCalledWith({ libraryId: 7, card: '1234' });
  });
});
